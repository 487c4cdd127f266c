/**
 * The index worker on one SQLite file shared by two processes' Storages: an index is asked
 * for over 1,500 records while the other process keeps writing; the worker holding the
 * `indexes` lease builds it to ready, and the finished index holds exactly every record's
 * entries (compared with a scan of the data), so filters then read it.
 */
import { parseListQuery, toEntries } from "@records-service/core";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { createIndexBuildWorker } from "./index-build.js";
import { openTwoProcesses } from "./leased-test-helpers.js";

describe("index worker", () => {
  it("builds an asked-for index while another process writes; the finished index misses no value", async () => {
    const { path, a, b, ctx, out, close } = await openTwoProcesses("index-build");
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
    await close();
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
    // Core's entries of each record's value, each kind and text once per record (as the index holds them).
    const lines = rows.flatMap((r) => toEntries((JSON.parse(r.data) as Record<string, unknown>)[field]).map((e) => `${r.id}\u0001${e.kind}\u0001${e.text}`));
    return [...new Set(lines)].sort();
  } finally {
    db.close();
  }
}

const _KINDS = ["string", "number", "boolean", "json"];
