/**
 * @module testing/records-list
 * Conformance of `listRecords`: every modifier over scalar and list fields, numbers, text,
 * booleans, JSON, absent fields, meta fields, modes, states, paging, totals, order and
 * isolation between flocks and types. The expectations are written out by hand from the
 * rules in model/query.ts, so the reference adapter is checked too.
 */
import { expect } from "vitest";
import { RecordsError } from "../errors.js";
import { LIST_ELEMENT_MIN_OVERHEAD } from "../schema/list-answer.js";
import { parseListQuery } from "../query/parse.js";
import type { Filter, ListQuery } from "../model/query.js";
import { F1, F2, flt, idsOf, insertAll, query, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { Storage } from "../storage/storage.js";

/** Declares the listing tests. */
export function describeListing(h: Harness): void {
  h.group("listRecords: filters", () => {
    for (const c of _FILTER_CASES) {
      h.it(c.name, async () => {
        const storage = await _seeded(h.storage());
        const page = await storage.listRecords(F1, "thing", query(c.filters, c.over));
        expect(idsOf(page.records)).toEqual(c.expected.map((n) => testId(n)));
        expect(page.total).toBe(c.expected.length);
      });
    }
  });

  h.group("listRecords: parsed queries", () => {
    const now = new Date("2026-03-01T00:00:00.000Z");
    const cases: { qs: string; surface: "v1" | "v2"; expected: number[] }[] = [
      { qs: "tags__and=red&tags__and=blue", surface: "v1", expected: [1] },
      { qs: "tags__orlist=green,blue", surface: "v2", expected: [1, 2, 4] },
      { qs: "name=Bob&tags=green&mode=OR", surface: "v1", expected: [2, 4] },
      { qs: "include_deleted=Y&tags=red", surface: "v1", expected: [1, 4, 7] },
      { qs: "include_deleted=Y&state=deleted", surface: "v1", expected: [7] },
      { qs: "when__lt=today", surface: "v1", expected: [1, 2, 3, 4] },
      { qs: "n__gte=5&page_size=1&page=2", surface: "v1", expected: [2] },
    ];
    for (const c of cases) {
      h.it(`${c.surface} ?${c.qs}`, async () => {
        const storage = await _seeded(h.storage());
        const parsed = parseListQuery(new URLSearchParams(c.qs), { surface: c.surface, now });
        const page = await storage.listRecords(F1, "thing", parsed);
        expect(idsOf(page.records)).toEqual(c.expected.map((n) => testId(n)));
      });
    }
  });

  h.group("listRecords: paging, order and isolation", () => {
    h.it("pages in creation order and counts every match", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      await insertAll(storage, Array.from({ length: 30 }, (_, i) => rec(i + 1, { n: i + 1, tags: ["x"] })));
      const pageOf = (page: number) => storage.listRecords(F1, "thing", query([], { page, pageSize: 7 }));
      const first = await pageOf(1);
      expect(first.total).toBe(30);
      expect(idsOf(first.records)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => testId(n)));
      expect(idsOf((await pageOf(3)).records)).toEqual([15, 16, 17, 18, 19, 20, 21].map((n) => testId(n)));
      const last = await pageOf(5);
      expect(idsOf(last.records)).toEqual([29, 30].map((n) => testId(n)));
      expect(last.total).toBe(30);
      const past = await pageOf(6);
      expect(past.records).toEqual([]);
      expect(past.total).toBe(30);
    });

    h.it("pages a filtered list and counts only matches", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      await insertAll(storage, Array.from({ length: 20 }, (_, i) => rec(i + 1, { n: i + 1 })));
      const page = await storage.listRecords(F1, "thing", query([flt("n", "gt", "10")], { page: 2, pageSize: 4 }));
      expect(page.total).toBe(10);
      expect(idsOf(page.records)).toEqual([15, 16, 17, 18].map((n) => testId(n)));
    });

    h.it("an update keeps the record's place in the order", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      const [a, b, c] = [rec(1, { name: "a" }), rec(2, { name: "b" }), rec(3, { name: "c" })];
      await insertAll(storage, [a, b, c]);
      await storage.apply({
        records: [{ kind: "update", expectedVersion: 1, changed: ["name"], record: { ...a, data: { name: "a2" }, lastUpdated: stamp(99), version: 2 } }],
      });
      const page = await storage.listRecords(F1, "thing", query([]));
      expect(idsOf(page.records)).toEqual([1, 2, 3].map((n) => testId(n)));
      expect(page.records[0]!.data).toEqual({ name: "a2" });
    });

    h.it("returns whole records", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      const r = rec(1, { name: "Ada", tags: ["a;b"], nested: { x: [1, null] }, n: 1.5, ok: false, none: null });
      await insertAll(storage, [r]);
      const page = await storage.listRecords(F1, "thing", query([]));
      expect(page.records).toEqual([r]);
    });

    h.it("stops reading a page at maxDataLength with the 400 `answer too large`", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      const data = (n: number) => ({ t: "x".repeat(90 + n) }); // JSON text of 99 + n characters
      await insertAll(storage, [1, 2, 3, 4, 5].map((n) => rec(n, data(n))));
      const length = (n: number) => JSON.stringify(data(n)).length + LIST_ELEMENT_MIN_OVERHEAD;
      const all = length(1) + length(2) + length(3) + length(4) + length(5);
      const fits = await storage.listRecords(F1, "thing", query([], { pageSize: 5, maxDataLength: all }));
      expect(idsOf(fits.records)).toEqual([1, 2, 3, 4, 5].map((n) => testId(n)));
      const refusal = await storage.listRecords(F1, "thing", query([], { pageSize: 5, maxDataLength: all - 1 })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refusal).toBeInstanceOf(RecordsError);
      expect(refusal).toMatchObject({ code: "bad_request", message: "answer too large" });
      expect((refusal as RecordsError).detail).toContain("page_size=4 or less");
      // Any page, in whatever order the adapter reads it, is refused alike.
      const last = storage.listRecords(F1, "thing", query([], { page: 2, pageSize: 3, maxDataLength: length(4) }));
      await expect(last).rejects.toMatchObject({ code: "bad_request", message: "answer too large" });
      const unbounded = await storage.listRecords(F1, "thing", query([], { page: 2, pageSize: 3 }));
      expect(idsOf(unbounded.records)).toEqual([4, 5].map((n) => testId(n)));
    });

    h.it("keeps flocks and types apart", async () => {
      const storage = await _seeded(h.storage());
      const other = await storage.listRecords(F2, "thing", query([flt("name", "eq", "Ada")]));
      expect(idsOf(other.records)).toEqual([testId(8)]);
      const otherType = await storage.listRecords(F1, "widget", query([]));
      expect(idsOf(otherType.records)).toEqual([testId(9)]);
      const none = await storage.listRecords(F1, "nothing", query([]));
      expect(none).toEqual({ total: 0, records: [] });
      const unknownFlock = await storage.listRecords("nope", "thing", query([]));
      expect(unknownFlock).toEqual({ total: 0, records: [] });
    });
  });
}

// --- internal ---

/**
 * The listing data set (flock f1, type thing unless noted):
 * 1..6 live, 7 deleted; 8 is in flock f2; 9 is of type widget.
 */
async function _seeded(storage: Storage): Promise<Storage> {
  await seedFlocks(storage);
  await insertAll(storage, [
    rec(1, {
      name: "Ada",
      n: 5,
      tags: ["red", "blue"],
      email: ["ada@example.org;home", "ada@work.org;work__primary"],
      flag: true,
      when: "2026-01-10",
      geo: { lat: 51.5 },
    }),
    rec(2, { name: "Bob", n: 10, tags: ["blue"], email: ["bob@example.org;home"], flag: false, when: "2026-02-01" }),
    rec(3, { name: "ada lovelace", n: "7", tags: [], flag: null, when: "2025-12-31" }),
    rec(4, { name: "Cyd", n: 2.5, tags: ["green", "red"], when: "2026-01-10T12:00:00.000000" }),
    rec(5, { name: "Émile", tags: null }),
    rec(6, {}),
    rec(7, { name: "Dot", n: -1, tags: ["red"] }, { state: "deleted" }),
    rec(8, { name: "Ada", tags: ["red"] }, { flock: F2 }),
    rec(9, { name: "Ada" }, { type: "widget" }),
  ]);
  return storage;
}

interface _Case {
  name: string;
  filters: Filter[];
  over?: Partial<ListQuery>;
  expected: number[];
}

const _FILTER_CASES: _Case[] = [
  { name: "no filters: every live record, in order", filters: [], expected: [1, 2, 3, 4, 5, 6] },
  // eq / raw / ne on a scalar text field
  { name: "eq is exact", filters: [flt("name", "eq", "Ada")], expected: [1] },
  { name: "eq is case-sensitive", filters: [flt("name", "eq", "ada")], expected: [] },
  { name: "raw is exact", filters: [flt("name", "raw", "Bob")], expected: [2] },
  { name: "ne keeps absent fields", filters: [flt("name", "ne", "Ada")], expected: [2, 3, 4, 5, 6] },
  // substring and prefix
  { name: "contains is case-sensitive", filters: [flt("name", "contains", "da")], expected: [1, 3] },
  { name: "contains finds nothing in another case", filters: [flt("name", "contains", "DA")], expected: [] },
  { name: "near is case-insensitive", filters: [flt("name", "near", "DA")], expected: [1, 3] },
  { name: "startswith is case-sensitive", filters: [flt("name", "startswith", "Ad")], expected: [1] },
  { name: "startswithi folds case", filters: [flt("name", "startswithi", "AD")], expected: [1, 3] },
  { name: "startswithi folds non-ASCII case", filters: [flt("name", "startswithi", "émi")], expected: [5] },
  // list fields
  { name: "eq matches any list entry", filters: [flt("tags", "eq", "red")], expected: [1, 4] },
  { name: "ne on a list: no entry equals", filters: [flt("tags", "ne", "red")], expected: [2, 3, 5, 6] },
  { name: "and: every value is an entry", filters: [flt("tags", "and", "red", "blue")], expected: [1] },
  { name: "or: some value is an entry", filters: [flt("tags", "or", "green", "blue")], expected: [1, 2, 4] },
  { name: "andlist: every value is an entry", filters: [flt("tags", "andlist", "red", "green")], expected: [4] },
  { name: "orlist: some value is an entry", filters: [flt("tags", "orlist", "green", "blue")], expected: [1, 2, 4] },
  { name: "none: no value is an entry", filters: [flt("tags", "none", "red", "green")], expected: [2, 3, 5, 6] },
  { name: "contains looks inside each entry", filters: [flt("tags", "contains", "ee")], expected: [4] },
  { name: "a list entry is compared whole", filters: [flt("email", "eq", "ada@example.org")], expected: [] },
  { name: "whole list entry matches", filters: [flt("email", "eq", "bob@example.org;home")], expected: [2] },
  { name: "startswith on list entries", filters: [flt("email", "startswith", "ada@example.org")], expected: [1] },
  { name: "startswithi on list entries", filters: [flt("email", "startswithi", "BOB@")], expected: [2] },
  { name: "near on list entries", filters: [flt("email", "near", "WORK__PRIMARY")], expected: [1] },
  // numbers: range filters with a numeric value see numeric values only
  { name: "gt numeric", filters: [flt("n", "gt", "5")], expected: [2] },
  { name: "gte numeric", filters: [flt("n", "gte", "5")], expected: [1, 2] },
  { name: "lt numeric (decimals)", filters: [flt("n", "lt", "5")], expected: [4] },
  { name: "lte numeric", filters: [flt("n", "lte", "2.5")], expected: [4] },
  { name: "lt negative", filters: [flt("n", "lt", "0")], expected: [] },
  { name: "eq compares a number's text", filters: [flt("n", "eq", "10")], expected: [2] },
  { name: "eq compares a decimal's text", filters: [flt("n", "eq", "2.5")], expected: [4] },
  { name: "eq matches a numeric string", filters: [flt("n", "eq", "7")], expected: [3] },
  // text ranges see string values only (dates written as text)
  { name: "gt text", filters: [flt("when", "gt", "2026-01-10")], expected: [2, 4] },
  { name: "gte text", filters: [flt("when", "gte", "2026-01-10")], expected: [1, 2, 4] },
  { name: "lt text", filters: [flt("when", "lt", "2026-01-10")], expected: [3] },
  { name: "lte text", filters: [flt("when", "lte", "2026-01-10")], expected: [1, 3] },
  { name: "text range compares code units", filters: [flt("name", "gt", "B")], expected: [2, 3, 4, 5] },
  { name: "text range ignores numeric values", filters: [flt("n", "lt", "a")], expected: [3] },
  // booleans and JSON
  { name: "eq true", filters: [flt("flag", "eq", "true")], expected: [1] },
  { name: "eq false", filters: [flt("flag", "eq", "false")], expected: [2] },
  { name: "ne true keeps null and absent", filters: [flt("flag", "ne", "true")], expected: [2, 3, 4, 5, 6] },
  { name: "contains inside a JSON value", filters: [flt("geo", "contains", "lat")], expected: [1] },
  // absent fields
  { name: "eq on an absent field", filters: [flt("nosuch", "eq", "x")], expected: [] },
  { name: "none on an absent field", filters: [flt("nosuch", "none", "x")], expected: [1, 2, 3, 4, 5, 6] },
  { name: "null never matches a positive filter", filters: [flt("flag", "eq", "null")], expected: [] },
  // modes
  {
    name: "AND combines filters",
    filters: [flt("tags", "eq", "red"), flt("name", "eq", "Cyd")],
    expected: [4],
  },
  {
    name: "OR combines filters",
    filters: [flt("name", "eq", "Bob"), flt("tags", "eq", "green")],
    over: { mode: "OR" },
    expected: [2, 4],
  },
  // meta fields
  { name: "id eq", filters: [flt("id", "eq", testId(2))], expected: [2] },
  { name: "created gte", filters: [flt("created", "gte", stamp(4))], expected: [4, 5, 6] },
  { name: "last_updated lt", filters: [flt("last_updated", "lt", stamp(3))], expected: [1, 2] },
  { name: "created startswith", filters: [flt("created", "startswith", "2026-01-01T00:00:0")], expected: [1, 2, 3, 4, 5, 6] },
  // states
  { name: "deleted only", filters: [], over: { states: ["deleted"] }, expected: [7] },
  { name: "both states", filters: [], over: { states: ["updated", "deleted"] }, expected: [1, 2, 3, 4, 5, 6, 7] },
  {
    name: "filters apply to deleted records too",
    filters: [flt("tags", "eq", "red")],
    over: { states: ["updated", "deleted"] },
    expected: [1, 4, 7],
  },
];
