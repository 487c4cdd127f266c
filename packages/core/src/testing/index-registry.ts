/**
 * @module testing/index-registry
 * Conformance of the value index's registry (`IndexRegistry`): its rows (set, list,
 * remove, the every-flock rows, a demand row taken over), its back-fill and removal steps,
 * and above all that a list answers the same whatever the registry says of the filtered
 * field: not indexed, being built, ready, dropped with leftovers, indexed again, a default's
 * row removed (built first). Answers
 * are compared with core's reference evaluator. Also across two Storages on one database:
 * one builds an index while the other writes, and the finished index misses no value.
 */
import { expect } from "vitest";
import { EVERY_FLOCK } from "../model/field-index.js";
import type { Filter, ListQuery } from "../model/query.js";
import type { StoredRecord } from "../model/record.js";
import { evaluateList } from "../query/evaluate.js";
import { F1, F2, flt, idsOf, insertAll, query, rec, seedFlocks } from "./fixtures.js";
import type { Harness } from "./harness.js";

/** Declares the `IndexRegistry` tests. */
export function describeIndexRegistry(h: Harness): void {
  h.group("registry rows", () => {
    h.it("sets, lists (the flock's and every flock's, by type, field and flock) and removes rows", async () => {
      const s = h.storage();
      expect(await s.listFieldIndexes(F1)).toEqual([]);
      expect(await s.setFieldIndex(F1, "thing", "size", "index", "operator")).toEqual({ flock: F1, type: "thing", field: "size", state: "building", source: "operator", progress: 0 });
      await s.setFieldIndex(EVERY_FLOCK, "thing", "colour", "index", "config");
      await s.setFieldIndex(F2, "thing", "size", "drop", "operator");
      await s.setFieldIndex(F1, "other", "a", "drop", "operator");
      const keys = (rows: { flock: string; type: string; field: string }[]) => rows.map((r) => `${r.flock}/${r.type}/${r.field}`);
      expect(keys(await s.listFieldIndexes(F1))).toEqual([`${F1}/other/a`, `*/thing/colour`, `${F1}/thing/size`]);
      expect(keys(await s.listFieldIndexes(F1, "thing"))).toEqual([`*/thing/colour`, `${F1}/thing/size`]);
      expect(keys(await s.listFieldIndexes(F2))).toEqual([`*/thing/colour`, `${F2}/thing/size`]);
      expect((await s.listFieldIndexes(F2, "thing")).find((r) => r.field === "size")?.state).toBe("dropped");
      expect(await s.removeFieldIndex(F1, "thing", "size")).toBe(true);
      expect(await s.removeFieldIndex(F1, "thing", "size")).toBe(false);
      expect(keys(await s.listFieldIndexes(F1, "thing"))).toEqual([`*/thing/colour`]);
    });

    h.it("keeps a row of the same wish, lets a named source take over a demand row, and turns on a new wish", async () => {
      const s = h.storage();
      await s.setFieldIndex(F1, "thing", "size", "index", "demand");
      await s.stepFieldIndexes(100);
      const ready = await s.setFieldIndex(F1, "thing", "size", "index", "demand");
      expect(ready).toMatchObject({ state: "ready", source: "demand", progress: 1 });
      expect(await s.setFieldIndex(F1, "thing", "size", "index", "operator")).toMatchObject({ state: "ready", source: "operator", progress: 1 });
      expect(await s.setFieldIndex(F1, "thing", "size", "index", "demand")).toMatchObject({ source: "operator" });
      expect(await s.setFieldIndex(F1, "thing", "size", "drop", "operator")).toMatchObject({ state: "dropped", progress: 0 });
      expect(await s.setFieldIndex(F1, "thing", "size", "index", "operator")).toMatchObject({ state: "building", progress: 0 });
    });

    h.it("steps build to ready and drops to done, deletes finished migration and default rows, and says when nothing is left", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, Array.from({ length: 30 }, (_, i) => rec(i + 1, { size: i })));
      await s.setFieldIndex(F1, "thing", "size", "index", "operator");
      await s.setFieldIndex(F1, "thing", "gone", "drop", "migration");
      await s.setFieldIndex(F1, "thing", "colour", "drop", "operator");
      await s.setFieldIndex(F1, "thing", "again", "index", "default"); // a default built again: goes once built
      let steps = 0;
      while ((await s.stepFieldIndexes(7)) >= 7) steps += 1;
      expect(steps).toBeLessThan(30);
      const rows = await s.listFieldIndexes(F1, "thing");
      expect(rows.map((r) => [r.field, r.state, r.progress])).toEqual([
        ["colour", "dropped", 1],
        ["size", "ready", 1],
      ]);
      expect(await s.stepFieldIndexes(7)).toBe(0);
    });
  });

  h.group("answers whatever the registry says", () => {
    h.it("a filter on a field answers as the reference does: unindexed, building, ready, dropped, indexed again", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const records = _things(60);
      await insertAll(s, records);
      await insertAll(s, [rec(500, { shoe: 41 }, { flock: F2 })]);
      const live = new Map(records.map((r) => [r.id, r]));
      const check = async (when: string) => {
        for (const q of _QUERIES) {
          const want = idsOf(evaluateList(live.values(), q).records);
          const got = await s.listRecords(F1, "thing", q);
          expect({ when, q: _show(q), ids: idsOf(got.records), total: got.total }).toEqual({ when, q: _show(q), ids: want, total: evaluateList(live.values(), q).total });
        }
      };
      const update = async (n: number, data: Record<string, unknown>) => {
        const id = records[n - 1]!.id;
        const old = live.get(id)!;
        const next: StoredRecord = { ...old, data: { ...old.data, ...data }, version: old.version + 1 };
        await s.apply({ records: [{ kind: "update", record: next, expectedVersion: old.version, changed: Object.keys(data) }] });
        live.set(id, next);
      };
      await check("no row");
      await s.setFieldIndex(F1, "thing", "shoe", "index", "operator");
      await s.stepFieldIndexes(25);
      await update(3, { shoe: 44 });
      await update(50, { shoe: ["Tall", 38] });
      await check("building");
      while ((await s.stepFieldIndexes(25)) >= 25);
      expect((await s.listFieldIndexes(F1, "thing"))[0]).toMatchObject({ state: "ready" });
      await check("ready");
      await update(4, { shoe: 39 });
      await s.setFieldIndex(F1, "thing", "shoe", "drop", "operator");
      await update(5, { shoe: "narrow" });
      await check("dropped, leftovers");
      await s.stepFieldIndexes(10);
      await update(6, { shoe: 45 });
      await s.setFieldIndex(F1, "thing", "shoe", "index", "operator");
      await update(7, { shoe: null });
      await check("indexed again, building");
      while ((await s.stepFieldIndexes(25)) >= 25);
      await check("indexed again, ready");
      await s.removeFieldIndex(F1, "thing", "shoe");
      await update(8, { shoe: 40 });
      await check("row removed");
    });
  });

  h.group("removing the row of a field the defaults index", () => {
    h.it("builds a dropped or building one first (source default, gone once built); answers stay the reference's", async () => {
      const s = h.storage();
      await seedFlocks(s);
      // `status` is indexed by default on every type (an engine field).
      const records = Array.from({ length: 40 }, (_, i) => rec(i + 1, i % 4 === 3 ? { other: i } : { status: ["open", "closed", "Open"][i % 4] }));
      const q = query([flt("status", "eq", "open")]);
      const want = idsOf(evaluateList(records, q).records);
      const answers = async () => idsOf((await s.listRecords(F1, "thing", q)).records);
      const own = async () => (await s.listFieldIndexes(F1, "thing")).find((r) => r.flock === F1 && r.field === "status");
      const drain = async () => {
        while ((await s.stepFieldIndexes(7)) >= 7);
      };
      await s.setFieldIndex(F1, "thing", "status", "drop", "operator");
      await drain(); // the entries of the records below are never written, and any earlier are removed
      await insertAll(s, records);
      expect(await answers()).toEqual(want);

      expect(await s.removeFieldIndex(F1, "thing", "status")).toBe(true);
      expect(await own()).toEqual({ flock: F1, type: "thing", field: "status", state: "building", source: "default", progress: 0 });
      expect(await answers()).toEqual(want);
      await s.stepFieldIndexes(10);
      expect(await answers()).toEqual(want);
      await drain();
      expect(await own()).toBeUndefined(); // built: the defaults rule, over a complete index
      expect(await answers()).toEqual(want);

      // A building row (an operator's, after a drop) takes source default and goes once built.
      await s.setFieldIndex(F1, "thing", "status", "drop", "operator");
      await drain();
      await s.setFieldIndex(F1, "thing", "status", "index", "operator");
      expect(await s.removeFieldIndex(F1, "thing", "status")).toBe(true);
      expect(await own()).toMatchObject({ state: "building", source: "default" });
      expect(await answers()).toEqual(want);
      await drain();
      expect(await own()).toBeUndefined();
      expect(await answers()).toEqual(want);

      // A ready row of a default field, and any row of a field the defaults leave out, go at once.
      await s.setFieldIndex(F1, "thing", "status", "index", "operator");
      await drain();
      expect(await s.removeFieldIndex(F1, "thing", "status")).toBe(true);
      expect(await own()).toBeUndefined();
      await s.setFieldIndex(F1, "thing", "shoe", "drop", "operator");
      expect(await s.removeFieldIndex(F1, "thing", "shoe")).toBe(true);
      expect(await s.listFieldIndexes(F1, "thing")).toEqual([]);
      expect(await answers()).toEqual(want);
    });
  });

  h.shared("two processes", (open) => {
    h.it("one builds an index while the other writes: the finished index misses no value", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      await insertAll(a, _things(80));
      await a.setFieldIndex(F1, "thing", "shoe", "index", "operator");
      const written: StoredRecord[] = [];
      for (let i = 0; i < 8; i++) {
        await a.stepFieldIndexes(10);
        const r = rec(1000 + i, { shoe: 30 + (i % 3) });
        await insertAll(b, [r]);
        written.push(r);
      }
      while ((await b.stepFieldIndexes(10)) >= 10);
      expect((await a.listFieldIndexes(F1, "thing"))[0]).toMatchObject({ state: "ready", progress: 1 });
      const all = [..._things(80), ...written];
      for (const s of [a, b]) {
        for (const q of _QUERIES) expect(idsOf((await s.listRecords(F1, "thing", q)).records)).toEqual(idsOf(evaluateList(all, q).records));
      }
    });
  });
}

// --- internal ---

/** `n` things whose `shoe` is a number, a text, a list, missing or null in turn. */
function _things(n: number): StoredRecord[] {
  const shoe = (i: number): unknown => [i % 12 + 35, `Wide ${i % 4}`, ["wide 1", i % 5 + 36], undefined, null][i % 5];
  return Array.from({ length: n }, (_, i) => {
    const v = shoe(i);
    return rec(i + 1, v === undefined ? { other: i } : { shoe: v, other: i });
  });
}

const _filters: Filter[][] = [
  [flt("shoe", "eq", "38")],
  [flt("shoe", "eq", "Wide 1")],
  [flt("shoe", "near", "wide")],
  [flt("shoe", "startswithi", "WIDE")],
  [flt("shoe", "gte", "40")],
  [flt("shoe", "lt", "M")],
  [flt("shoe", "ne", "38")],
  [flt("shoe", "none", "40", "41")],
  [flt("shoe", "or", "39", "wide 1")],
  [flt("shoe", "and", "wide 1", "38")],
  [flt("shoe", "contains", "de ")],
  [flt("shoe", "eq", "38"), flt("other", "gte", "20")],
];

const _QUERIES: ListQuery[] = [
  ..._filters.map((f) => query(f)),
  query([flt("shoe", "eq", "38"), flt("shoe", "near", "wide")], { mode: "OR" }),
  query([flt("shoe", "gte", "36")], { sort: { field: "shoe", meta: false, descending: true }, pageSize: 7, page: 2 }),
];

function _show(q: ListQuery): string {
  return JSON.stringify([q.mode, q.filters.map((f) => [f.field, f.op, f.values.map((v) => v.text)]), q.sort?.field ?? null]);
}
