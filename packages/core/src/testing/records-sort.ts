/**
 * @module testing/records-sort
 * Conformance of `listRecords` with `sort`: data fields of mixed kinds (numbers, texts in
 * code point order, lists by their least entry, empty values last), meta fields, both
 * directions, every page read from either end, filters and states beside a sort. The
 * expectations are written out by hand from `ListSort` in model/query.ts.
 */
import { expect } from "vitest";
import { parseListQuery } from "../query/parse.js";
import type { ListQuery, ListSort } from "../model/query.js";
import { F1, flt, idsOf, insertAll, query, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { Storage } from "../storage/storage.js";

/** Declares the sorting tests. */
export function describeSorting(h: Harness): void {
  h.group("listRecords: sort", () => {
    const cases: { name: string; sort: ListSort; over?: Partial<ListQuery>; expected: number[] }[] = [
      { name: "a data field ascending: numbers, texts, then empty values", sort: _by("v"), expected: _ASCENDING },
      { name: "a data field descending: empty values still last", sort: _by("v", true), expected: _DESCENDING },
      // No record holds a number in `k`: the SQL adapters leave the number probe out of the order.
      { name: "a text-only field ascending: ties in insertion order", sort: _by("k"), expected: [..._ALL.filter((n) => n % 2 === 0), ..._ALL.filter((n) => n % 2 === 1)] },
      { name: "a text-only field descending: ties in reverse insertion order", sort: _by("k", true), expected: [..._ALL.filter((n) => n % 2 === 1).reverse(), ..._ALL.filter((n) => n % 2 === 0).reverse()] },
      { name: "a field no record has keeps insertion order", sort: _by("nothing"), expected: _ALL },
      { name: "a field no record has, descending, reverses it", sort: _by("nothing", true), expected: [..._ALL].reverse() },
      { name: "created ascending", sort: _meta("created"), expected: [..._ALL].reverse() },
      { name: "created descending (newest first)", sort: _meta("created", true), expected: _ALL },
      { name: "last_updated descending", sort: _meta("last_updated", true), expected: [..._ALL].reverse() },
      { name: "id descending", sort: _meta("id", true), expected: [..._ALL].reverse() },
      { name: "with an equality filter", sort: _by("v", true), over: { filters: [flt("k", "eq", "odd")] }, expected: _DESCENDING.filter((n) => n % 2 === 1) },
      { name: "with a range filter", sort: _by("v"), over: { filters: [flt("v", "gte", "3")] }, expected: [2, 15, 8, 7] },
      { name: "with deleted records shown", sort: _by("v"), over: { states: ["updated", "deleted"] }, expected: [17, ..._ASCENDING] },
    ];
    for (const c of cases) {
      h.it(c.name, async () => {
        const storage = await _seeded(h.storage());
        const whole = await storage.listRecords(F1, "thing", query([], { ...c.over, sort: c.sort }));
        expect(idsOf(whole.records)).toEqual(c.expected.map((n) => testId(n)));
        expect(whole.total).toBe(c.expected.length);
      });
    }

    h.it("every page, from either end, is its slice of the order", async () => {
      const storage = await _seeded(h.storage());
      for (const [sort, expected] of [[_by("v"), _ASCENDING], [_by("v", true), _DESCENDING], [_meta("created", true), _ALL]] as const) {
        for (const pageSize of [3, 4, 7]) {
          const read: string[] = [];
          for (let page = 1; page <= Math.ceil(expected.length / pageSize); page++) {
            const found = await storage.listRecords(F1, "thing", query([], { sort, page, pageSize }));
            expect(found.total).toBe(expected.length);
            read.push(...idsOf(found.records));
          }
          expect(read).toEqual(expected.map((n) => testId(n)));
        }
      }
    });

    h.it("a parsed `sort=-v` orders the list", async () => {
      const storage = await _seeded(h.storage());
      const parsed = parseListQuery(new URLSearchParams("sort=-v&page_size=5&page=2"), { surface: "v1", now: new Date() });
      const found = await storage.listRecords(F1, "thing", parsed);
      expect(idsOf(found.records)).toEqual(_DESCENDING.slice(5, 10).map((n) => testId(n)));
    });
  });
}

// --- internal ---

const _by = (field: string, descending = false): ListSort => ({ field, meta: false, descending });
const _meta = (field: string, descending = false): ListSort => ({ field, meta: true, descending });

/** The live records, 1 to 16 (17 is deleted); `created` runs backwards, `last_updated` and ids forwards. */
const _VALUES: Record<number, unknown> = {
  1: "banana",
  2: 3,
  3: "Apple",
  4: undefined,
  5: ["cherry", "apple2"],
  6: null,
  7: 10,
  8: [5, "zed"],
  9: "apple",
  10: true,
  11: "éclair",
  12: "\u{10000}x",
  13: "\uffffx",
  14: [],
  15: 3,
  16: -1.5,
};
const _ALL = Object.keys(_VALUES).map(Number);
const _ASCENDING = [16, 2, 15, 8, 7, 3, 9, 5, 1, 10, 11, 13, 12, 4, 6, 14];
const _DESCENDING = [7, 8, 15, 2, 16, 12, 13, 11, 10, 1, 5, 9, 3, 14, 6, 4];

async function _seeded(storage: Storage): Promise<Storage> {
  await seedFlocks(storage);
  const data = (n: number) => ({ k: n % 2 === 1 ? "odd" : "even", ...(_VALUES[n] === undefined ? {} : { v: _VALUES[n] }) });
  await insertAll(storage, [
    ..._ALL.map((n) => rec(n, data(n), { created: stamp(1000 - n) })),
    rec(17, { v: -7 }, { state: "deleted", created: stamp(1) }),
  ]);
  return storage;
}
