/**
 * The SQLite Storage: the core conformance suite in memory and on a file, plus what only a
 * database has: reopening, migrations, pragmas, read-only mode, kept counts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conflict, type StoredRecord } from "@records-service/core";
import { runStorageTests } from "@records-service/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";
import { MIGRATIONS_FOLDER, openDatabase } from "./open.js";

const dir = mkdtempSync(join(tmpdir(), "records-sqlite-"));
let fileNo = 0;
const tempPath = () => join(dir, `t${++fileNo}`, "records.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStorageTests({ name: "sqlite :memory:", create: () => createSqliteStorage({ path: ":memory:" }) });
runStorageTests({
  name: "sqlite file",
  create: () => createSqliteStorage({ path: tempPath() }),
  openShared: () => {
    const path = tempPath();
    return [createSqliteStorage({ path }), createSqliteStorage({ path })];
  },
});

const rec = (n: number, data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f1",
  type: "person",
  state: "updated",
  data,
  displayValue: `r${n}`,
  created: `2026-01-01T00:00:0${n}.000000`,
  lastUpdated: `2026-01-01T00:00:0${n}.000000`,
  version: 1,
  ...over,
});

const all = { filters: [], mode: "AND" as const, states: ["updated" as const], page: 1, pageSize: 25 };

describe("a database file", () => {
  it("keeps its data across close and reopen, and migrating again changes nothing", async () => {
    const path = tempPath(); // its folder does not exist yet: opening creates it
    const first = createSqliteStorage({ path });
    await first.createFlock({ identifier: "f1", name: "One", created: "2026-01-01T00:00:00.000000" });
    await first.apply({ records: [{ kind: "insert", record: rec(1, { last_name: "Lovelace", tags: ["a"] }) }] });
    await first.close();

    const again = createSqliteStorage({ path });
    expect((await again.getFlock("f1"))?.name).toBe("One");
    expect((await again.getRecord("f1", "person", rec(1, {}).id))?.data).toEqual({ last_name: "Lovelace", tags: ["a"] });
    const found = await again.listRecords("f1", "person", {
      ...all,
      filters: [{ field: "tags", meta: false, op: "eq", values: [{ text: "a" }] }],
    });
    expect(found.total).toBe(1);
    // A new field after reopening gets a new id; the old ones still answer.
    await again.apply({ records: [{ kind: "insert", record: rec(2, { first_name: "Ada", tags: ["a"] }) }] });
    expect((await again.listRecords("f1", "person", all)).total).toBe(2);
    await again.close();

    const db = openDatabase({ path });
    const applied = db.$client.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    // One row per migration in drizzle/, however many there are: reopening applied none twice.
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    expect(applied.n).toBe(journal.entries.length);
    db.$client.close();
  });

  it("uses WAL with synchronous NORMAL, foreign keys and a busy timeout", () => {
    const db = openDatabase({ path: tempPath() });
    const pragma = (name: string) => db.$client.pragma(name, { simple: true });
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(1); // NORMAL
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    db.$client.close();
  });

  it("read-only: reads work, writes fail, nothing is migrated", async () => {
    const path = tempPath();
    const rw = createSqliteStorage({ path });
    await rw.createFlock({ identifier: "f1", name: "One", created: "2026-01-01T00:00:00.000000" });
    await rw.close();
    const ro = createSqliteStorage({ path, readonly: true });
    expect((await ro.listFlocks()).map((f) => f.identifier)).toEqual(["f1"]);
    await expect(ro.createFlock({ identifier: "f2", name: "Two", created: "x" })).rejects.toThrow(/readonly/);
    await ro.close();
  });

  it("read-only on a missing file fails instead of creating one", () => {
    expect(() => createSqliteStorage({ path: join(dir, "missing", "x.db"), readonly: true })).toThrow();
  });
});

describe("schema", () => {
  it.each(["record_values", "record_refs", "collection_counts", "ticket_stock"])("%s is a WITHOUT ROWID table", (table) => {
    const db = openDatabase({ path: ":memory:" });
    const row = db.$client.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(table) as { sql: string };
    expect(row.sql).toMatch(/WITHOUT ROWID$/);
    db.$client.close();
  });
});

describe("apply", () => {
  it("keeps created through an update that keeps it (a statement without it), and stores one an update changes", async () => {
    const path = tempPath();
    const s = createSqliteStorage({ path });
    await s.apply({ records: [{ kind: "insert", record: rec(1, { last_name: "Lovelace" }) }] });
    const sorted = { ...all, sort: { field: "created", meta: true, descending: false } };
    await s.apply({ records: [{ kind: "update", record: rec(1, { last_name: "King" }, { version: 2, lastUpdated: "2026-02-01T00:00:00.000000" }), expectedVersion: 1, changed: ["last_name"] }] });
    expect(await s.getRecord("f1", "person", rec(1, {}).id)).toMatchObject({ created: rec(1, {}).created, version: 2 });
    await s.apply({ records: [{ kind: "update", record: rec(1, { last_name: "King" }, { version: 3, created: "2025-01-01T00:00:00.000000" }), expectedVersion: 2, changed: [] }] });
    expect(await s.getRecord("f1", "person", rec(1, {}).id)).toMatchObject({ created: "2025-01-01T00:00:00.000000", version: 3 });
    // The created index follows: a created range finds the record by its new value.
    const found = await s.listRecords("f1", "person", { ...sorted, filters: [{ field: "created", meta: true, op: "lt", values: [{ text: "2025-06-01" }] }] });
    expect(found.records.map((r) => r.id)).toEqual([rec(1, {}).id]);
    await s.close();
  });

  it("keeps no reference row for a data event, and lists none kept by an older version", async () => {
    const path = tempPath();
    const s = createSqliteStorage({ path });
    const uri = "/f1/person/000000000000000000000001/";
    await s.apply({ records: [{ kind: "insert", record: rec(1, { last_name: "Lovelace" }) }] });
    await s.apply({ records: [{ kind: "insert", record: rec(2, { context_ref: uri }, { type: "data_event" }) }, { kind: "insert", record: rec(3, { member: uri }, { type: "membership" }) }] });
    const db = openDatabase({ path });
    const refs = () => db.$client.prepare("SELECT r.id FROM record_refs f JOIN records r USING (rid) ORDER BY r.id").pluck().all();
    expect(refs()).toEqual([rec(3, {}).id]);
    // An older version kept the data event's reference row too: it is not listed.
    db.$client.prepare("INSERT INTO record_refs (target, rid) SELECT ?, rid FROM records WHERE id = ?").run(uri, rec(2, {}).id);
    expect(refs()).toHaveLength(2);
    expect((await s.listReferencing("f1", uri, 10)).map((r) => r.id)).toEqual([rec(3, {}).id]);
    db.$client.close();
    await s.close();
  });

  it("stores a value's folded form only where folding changes it, and rewrites it with the value", async () => {
    const path = tempPath();
    const s = createSqliteStorage({ path });
    await s.apply({ records: [{ kind: "insert", record: rec(1, { last_name: "Lovelace", tags: ["vip", "VIP"], n: 3 }) }] });
    await s.apply({ records: [{ kind: "update", record: rec(1, { last_name: "lovelace", tags: ["vip", "VIP"], n: 3 }, { version: 2 }), expectedVersion: 1, changed: ["last_name"] }] });
    const db = openDatabase({ path });
    const rows = db.$client.prepare("SELECT text, folded FROM record_values ORDER BY fid, kind, text").all();
    db.$client.close();
    expect(rows).toEqual([
      { text: "lovelace", folded: null },
      { text: "VIP", folded: "vip" },
      { text: "vip", folded: null },
      // `n` is not indexed by default (isIndexedByDefault): its entries are not stored.
    ]);
    await s.close();
  });

  it("rolls back every write of a change set when one update has a stale version", async () => {
    const s = createSqliteStorage({ path: ":memory:" });
    await s.apply({ records: [{ kind: "insert", record: rec(1, { tags: ["a"] }) }] });
    const stale = s.apply({
      records: [
        { kind: "insert", record: rec(2, { tags: ["a"] }) },
        { kind: "update", record: rec(1, { tags: ["b"] }, { version: 3 }), expectedVersion: 2, changed: ["tags"] },
      ],
    });
    await expect(stale).rejects.toMatchObject({ code: conflict("x").code });
    expect(await s.getRecord("f1", "person", rec(2, {}).id)).toBeUndefined();
    const tagB = { ...all, filters: [{ field: "tags", meta: false, op: "eq" as const, values: [{ text: "b" }] }] };
    expect((await s.listRecords("f1", "person", tagB)).total).toBe(0);
    expect((await s.listRecords("f1", "person", all)).total).toBe(1);
    await s.close();
  });

  it("a rolled-back change set leaves no collection or field behind", async () => {
    const s = createSqliteStorage({ path: ":memory:" });
    await s.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
    const dup = s.apply({
      records: [
        { kind: "insert", record: rec(2, { fresh: "x" }, { type: "other" }) },
        { kind: "insert", record: rec(1, {}) },
      ],
    });
    await expect(dup).rejects.toMatchObject({ code: "conflict" });
    expect(await s.summarizeTypes("f1")).toEqual([{ name: "person", count: 1, lastModified: rec(1, {}).lastUpdated }]);
    // The same new type and field then work (no stale cached ids).
    await s.apply({ records: [{ kind: "insert", record: rec(2, { fresh: "x" }, { type: "other" }) }] });
    const fresh = { ...all, filters: [{ field: "fresh", meta: false, op: "eq" as const, values: [{ text: "x" }] }] };
    expect((await s.listRecords("f1", "other", fresh)).total).toBe(1);
    await s.close();
  });

  it("refuses an insert whose id exists in another type or flock", async () => {
    const s = createSqliteStorage({ path: ":memory:" });
    await s.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
    for (const over of [{ type: "other" }, { flock: "f2" }]) {
      await expect(s.apply({ records: [{ kind: "insert", record: rec(1, {}, over) }] })).rejects.toMatchObject({
        code: "conflict",
      });
    }
    expect(await s.summarizeTypes("f1")).toHaveLength(1);
    await s.close();
  });

  it("keeps totals by state through deletes and restores", async () => {
    const s = createSqliteStorage({ path: ":memory:" });
    await s.apply({ records: [1, 2, 3].map((n) => ({ kind: "insert" as const, record: rec(n, {}) })) });
    await s.apply({ records: [{ kind: "update", record: rec(2, {}, { state: "deleted", version: 2 }), expectedVersion: 1, changed: [] }] });
    const total = async (states: ("updated" | "deleted")[]) => (await s.listRecords("f1", "person", { ...all, states })).total;
    expect([await total(["updated"]), await total(["deleted"]), await total(["updated", "deleted"])]).toEqual([2, 1, 3]);
    await s.apply({ records: [{ kind: "update", record: rec(2, {}, { version: 3 }), expectedVersion: 2, changed: [] }] });
    expect([await total(["updated"]), await total(["deleted"])]).toEqual([3, 0]);
    await s.close();
  });
});

describe("paging from the end", () => {
  it.each([
    { page: 1, expected: [1, 2, 3] },
    { page: 3, expected: [7, 8, 9] },
    { page: 4, expected: [10, 11, 12] },
    { page: 5, expected: [13] },
    { page: 6, expected: [] },
  ])("page $page of 13 records by 3", async ({ page, expected }) => {
    const s = createSqliteStorage({ path: ":memory:" });
    await s.apply({
      records: Array.from({ length: 13 }, (_, i) => ({ kind: "insert" as const, record: rec(i + 1, { n: i + 1 }) })),
    });
    const unfiltered = await s.listRecords("f1", "person", { ...all, page, pageSize: 3 });
    const filtered = await s.listRecords("f1", "person", {
      ...all,
      page,
      pageSize: 3,
      filters: [{ field: "n", meta: false, op: "gte", values: [{ text: "1", number: 1 }] }],
    });
    for (const got of [unfiltered, filtered]) {
      expect(got.total).toBe(13);
      expect(got.records.map((r) => r.data.n)).toEqual(expected);
    }
    await s.close();
  });
});
