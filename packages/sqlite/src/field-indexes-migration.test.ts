/**
 * A file an older version wrote, which indexed every field, opened by this one (migration
 * 0012): the fields the defaults no longer index get `dropped` rows of source `migration`,
 * lists answer as the reference evaluator does while their leftover entries are still
 * there and after the steps removed them, a step walks at most its limit, and the rows then go.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluateList, parseListQuery, type StoredRecord } from "@records-service/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";
import { rewindMigrations } from "./testing.js";

const dir = mkdtempSync(join(tmpdir(), "field-index-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("migration 0012 on a file that indexed every field", () => {
  it("marks the fields the defaults leave out as dropped, answers right throughout, removes their entries a step at a time", async () => {
    const path = join(dir, "old.db");
    const records = Array.from({ length: 1200 }, (_, i): StoredRecord => ({
      id: (i + 1).toString(16).padStart(24, "0"),
      flock: "demo",
      type: "membership",
      state: "updated",
      data: { level: ["gold", "silver", "bronze"][i % 3], membership_number: `N${i}`, fee: i % 50, notes: i % 7 === 0 ? "Ada" : null },
      displayValue: "",
      created: "2026-01-01T00:00:00.000000",
      lastUpdated: "2026-01-01T00:00:00.000000",
      version: 1,
    }));
    // As the older version left it: every field's entries stored, no registry.
    const before = createSqliteStorage({ path });
    await before.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    for (const f of ["level", "fee", "notes"]) await before.setFieldIndex("demo", "membership", f, "index", "operator");
    await before.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
    await before.close();
    const raw = new Database(path);
    // Back to before 0012 (no registry): it and every later migration run at the next open.
    rewindMigrations(raw, "0012_field_indexes");
    const entries = (field: string) =>
      (raw.prepare("SELECT count(*) AS n FROM record_values v JOIN fields f ON f.fid = v.fid WHERE f.name = ?").get(field) as { n: number }).n;
    expect(entries("fee")).toBe(1200);
    raw.close();

    const s = createSqliteStorage({ path });
    expect((await s.listFieldIndexes("demo", "membership")).map((r) => [r.field, r.state, r.source])).toEqual([
      ["fee", "dropped", "migration"],
      ["level", "dropped", "migration"],
      ["notes", "dropped", "migration"],
    ]);
    const check = async () => {
      for (const qs of ["level=gold", "fee__gte=45", "notes__near=ada", "level=silver&fee__lt=3", "membership_number=N17"]) {
        const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date() });
        const want = evaluateList(records, q);
        const got = await s.listRecords("demo", "membership", q);
        expect({ qs, total: got.total, ids: got.records.map((r) => r.id) }).toEqual({ qs, total: want.total, ids: want.records.map((r) => r.id) });
      }
    };
    await check();
    // Each call walks at most its limit, one transaction per row and step of at most 500
    // records (how long one holds the lock is measured by the bench, not here).
    let steps = 0;
    for (;;) {
      const walked = await s.stepFieldIndexes(500);
      expect(walked).toBeLessThanOrEqual(500);
      steps += 1;
      if (steps === 2) await check(); // half way
      if (walked < 500) break;
    }
    expect(steps).toBeGreaterThan(3);
    await check();
    expect(await s.listFieldIndexes("demo", "membership")).toEqual([]);
    await s.close();
    const after = new Database(path, { readonly: true });
    const left = after.prepare("SELECT f.name, count(*) AS n FROM record_values v JOIN fields f ON f.fid = v.fid GROUP BY f.name ORDER BY f.name").all();
    after.close();
    expect(left).toEqual([{ name: "membership_number", n: 1200 }]);
  });
});
