/**
 * The index worker on one SQLite file shared by two processes' Storages: an index is asked
 * for over 1,500 records while the other process keeps writing; the worker holding the
 * `indexes` lease builds it to ready, and the finished index holds exactly every record's
 * entries (compared with a scan of the data), so filters then read it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordEngine, parseListQuery, systemClock, type Storage } from "@records-service/core";
import { valueRows } from "@records-service/sql";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../config.js";
import type { WorkerContext } from "../runtime/workers.js";
import { resolveSettings } from "../settings.js";
import { createIndexBuildWorker } from "./index-build.js";

const dir = mkdtempSync(join(tmpdir(), "index-build-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("index worker", () => {
  it("builds an asked-for index while another process writes; the finished index misses no value", async () => {
    const path = join(dir, "shared.db");
    const a = createSqliteStorage({ path });
    const b = createSqliteStorage({ path });
    await a.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
    const out: string[] = [];
    const ctx = (storage: Storage): WorkerContext => ({
      storage,
      engine: createRecordEngine({ storage }),
      settings: resolveSettings(parseConfig({ workers: { leaseMs: 300 } })),
      templates: [],
      clock: systemClock,
      secret: "s".repeat(32),
      out: (l) => out.push(l),
    });
    const ea = ctx(a).engine;
    const eb = ctx(b).engine;
    const shoe = (i: number) => (i % 4 === 0 ? [`Size ${i % 7}`, i % 9] : i % 4 === 1 ? 30 + (i % 13) : i % 4 === 2 ? `wide ${i % 5}` : null);
    await ea.createMany("demo", "reservation", Array.from({ length: 1500 }, (_, i) => ({ note: `P${i}`, shoe_size: shoe(i) })));
    const worker = createIndexBuildWorker(ctx(a), { intervalMs: 10, batch: 300 });
    expect(await ea.indexes.add("demo", "reservation", "shoe_size")).toMatchObject({ status: "building", progress: 0 });
    await worker.start();
    for (let i = 0; i < 40; i++) {
      const r = await eb.create("demo", "reservation", { note: `Q${i}`, shoe_size: shoe(i + 7) });
      if (i % 3 === 0) await eb.update("demo", "reservation", r.id, { shoe_size: shoe(i + 1) });
    }
    await vi.waitFor(async () => expect((await eb.indexes.list("demo")).find((v) => v.field === "shoe_size")).toMatchObject({ status: "declared", progress: 1 }), { timeout: 30_000, interval: 20 });
    await worker.stop();

    expect(_indexRows(path, "shoe_size")).toEqual(_scannedRows(path, "shoe_size"));
    const q = parseListQuery(new URLSearchParams("shoe_size=31"), { surface: "v2", now: new Date() });
    const page = await eb.list("demo", "reservation", q);
    expect(page.scanned).toBeUndefined(); // read from the index now
    expect(page.total).toBe(_scannedRows(path, "shoe_size").filter((r) => r.endsWith("\u0001number\u000131")).length);
    expect(out).toEqual([]);
    await a.close();
    await b.close();
  });
});

// --- internal ---

/** The field's index entries, one line per record and entry. */
function _indexRows(path: string, field: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare<[string], { id: string; kind: number; text: string }>(
        `SELECT r.id, v.kind, v.text FROM record_values v JOIN records r ON r.rid = v.rid JOIN fields f ON f.fid = v.fid WHERE f.name = ?`,
      )
      .all(field);
    return rows.map((r) => `${r.id}\u0001${_KINDS[r.kind]}\u0001${r.text}`).sort();
  } finally {
    db.close();
  }
}

/** What the index should hold: every record's entries of the field, from its data. */
function _scannedRows(path: string, field: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare<[], { id: string; data: string }>("SELECT id, data FROM records").all();
    return rows.flatMap((r) => valueRows((JSON.parse(r.data) as Record<string, unknown>)[field]).map((v) => `${r.id}\u0001${_KINDS[v.kind]}\u0001${v.text}`)).sort();
  } finally {
    db.close();
  }
}

const _KINDS = ["string", "number", "boolean", "json"];
