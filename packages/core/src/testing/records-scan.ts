/**
 * @module testing/records-scan
 * Conformance of `scanRecords`: the walk over a query's matches that long tasks use. Each
 * match is visited once, in insertion order, even when the walker's own writes change
 * which records match; steps honour the limit; the cursor is null once nothing follows.
 */
import { expect } from "vitest";
import { F1, F2, flt, idsOf, insertAll, query, rec, seedFlocks, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import { LIST_ELEMENT_MIN_OVERHEAD } from "../schema/list-answer.js";
import type { StoredRecord } from "../model/record.js";
import type { ScanPage, ScanQuery } from "../storage/record-store.js";
import type { Storage } from "../storage/storage.js";

/** Declares the scan tests. */
export function describeScan(h: Harness): void {
  h.group("scanRecords", () => {
    h.it("walks every match in insertion order, a step at a time", async () => {
      const storage = await _seeded(h.storage(), 12, (n) => ({ n, tags: n % 3 === 0 ? ["skip"] : ["x"] }));
      const steps = await _walk(storage, _q([flt("tags", "eq", "x")]), 3);
      expect(steps.map((s) => s.length).every((n) => n <= 3)).toBe(true);
      expect(steps.flat()).toEqual([1, 2, 4, 5, 7, 8, 10, 11].map((n) => testId(n)));
    });

    h.it("ends a step at maxDataLength, always taking the first record, and still visits every match", async () => {
      const data = (n: number) => ({ n: 100 + n, t: "x".repeat(300) }); // the same length for all
      const storage = await _seeded(h.storage(), 6, data);
      const each = JSON.stringify(data(1)).length + LIST_ELEMENT_MIN_OVERHEAD;
      const steps: string[][] = [];
      let cursor: string | null = null;
      for (let guard = 0; guard < 20; guard++) {
        const page: ScanPage = await storage.scanRecords(F1, "thing", _q([]), cursor, 10, Math.floor(2.5 * each));
        steps.push(idsOf(page.records));
        cursor = page.cursor;
        if (cursor === null) break;
      }
      expect(steps.filter((s) => s.length > 0).map((s) => s.length)).toEqual([2, 2, 2]);
      expect(steps.flat()).toEqual([1, 2, 3, 4, 5, 6].map((n) => testId(n)));
      const tiny = await storage.scanRecords(F1, "thing", _q([]), null, 10, 1);
      expect(idsOf(tiny.records)).toEqual([testId(1)]);
      expect(tiny.cursor).not.toBeNull();
    });

    h.it("ends with a null cursor, and an empty walk at once", async () => {
      const storage = await _seeded(h.storage(), 4, (n) => ({ n }));
      const all = await storage.scanRecords(F1, "thing", _q([]), null, 10);
      expect(idsOf(all.records)).toEqual([1, 2, 3, 4].map((n) => testId(n)));
      expect(all.cursor).toBeNull();
      const none = await storage.scanRecords(F1, "thing", _q([flt("n", "eq", "99")]), null, 10);
      expect(none).toEqual({ records: [], cursor: null });
      const unknownType = await storage.scanRecords(F1, "nothing", _q([]), null, 10);
      expect(unknownType).toEqual({ records: [], cursor: null });
    });

    h.it("visits each match once while the walker's writes change what matches", async () => {
      const storage = await _seeded(h.storage(), 10, (n) => ({ n, tags: ["x"] }));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await storage.scanRecords(F1, "thing", _q([flt("tags", "none", "done")]), cursor, 3);
        seen.push(...idsOf(page.records));
        // Tag what was visited (it stops matching) and move a later record's data (it keeps its place).
        await storage.apply({ records: page.records.map((r) => _update(r, { ...r.data, tags: ["x", "done"] })) });
        cursor = page.cursor;
      } while (cursor !== null);
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => testId(n)));
    });

    h.it("keeps an updated record in its place and reaches records inserted later", async () => {
      const storage = await _seeded(h.storage(), 4, (n) => ({ n }));
      const first = await storage.scanRecords(F1, "thing", _q([]), null, 2);
      expect(idsOf(first.records)).toEqual([testId(1), testId(2)]);
      const [r1] = first.records as [StoredRecord];
      await storage.apply({ records: [_update(r1, { n: 100 })] }); // behind the cursor: not seen again
      await insertAll(storage, [rec(5, { n: 5 })]);
      const rest = await _walk(storage, _q([]), 2, first.cursor);
      expect(rest.flat()).toEqual([3, 4, 5].map((n) => testId(n)));
    });

    h.it("is not thrown off by records deleted for good during the walk", async () => {
      const storage = await _seeded(h.storage(), 8, (n) => ({ n }));
      const first = await storage.scanRecords(F1, "thing", _q([]), null, 3);
      expect(idsOf(first.records)).toEqual([1, 2, 3].map((n) => testId(n)));
      await storage.deleteRecords(F1, "thing", [testId(1), testId(2), testId(5)]);
      const rest = await _walk(storage, _q([]), 3, first.cursor);
      expect(rest.flat()).toEqual([4, 6, 7, 8].map((n) => testId(n)));
    });

    h.it("keeps to its flock, type and states", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      await insertAll(storage, [
        rec(1, { n: 1 }),
        rec(2, { n: 2 }, { state: "deleted" }),
        rec(3, { n: 3 }, { flock: F2 }),
        rec(4, { n: 4 }, { type: "other" }),
        rec(5, { n: 5 }),
      ]);
      expect((await _walk(storage, _q([]), 10)).flat()).toEqual([testId(1), testId(5)]);
      const all = await _walk(storage, { ..._q([]), states: ["updated", "deleted"] }, 10);
      expect(all.flat()).toEqual([testId(1), testId(2), testId(5)]);
    });

    h.it("finds sparse matches among many records", async () => {
      const storage = await _seeded(h.storage(), 60, (n) => ({ n, hit: n === 2 || n === 59 ? "yes" : "no" }));
      const steps = await _walk(storage, _q([flt("hit", "eq", "yes")]), 1);
      expect(steps.flat()).toEqual([testId(2), testId(59)]);
    });
  });
}

// --- internal ---

function _q(filters: ScanQuery["filters"]): ScanQuery {
  const { mode, states } = query(filters);
  return { filters, mode, states };
}

async function _seeded(storage: Storage, count: number, data: (n: number) => Record<string, unknown>): Promise<Storage> {
  await seedFlocks(storage);
  await insertAll(storage, Array.from({ length: count }, (_, i) => rec(i + 1, data(i + 1))));
  return storage;
}

/** The ids of each step of a whole walk (a step may be empty while the cursor moves on). */
async function _walk(storage: Storage, q: ScanQuery, limit: number, from: string | null = null): Promise<string[][]> {
  const steps: string[][] = [];
  let cursor = from;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await storage.scanRecords(F1, "thing", q, cursor, limit);
    steps.push(idsOf(page.records));
    if (page.cursor === null) return steps;
    expect(page.cursor).not.toBe(cursor);
    cursor = page.cursor;
  }
  throw new Error("the walk did not end");
}

function _update(r: StoredRecord, data: Record<string, unknown>) {
  return { kind: "update" as const, record: { ...r, data, version: r.version + 1 }, expectedVersion: r.version, changed: Object.keys(data) };
}
