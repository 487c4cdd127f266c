import { describe, expect, it } from "vitest";
import { entriesOf, evaluateList, matchesFilters, matchesQuery } from "./evaluate.js";
import { makeRecord, parseQs } from "./test-helpers.js";
import type { ListQuery } from "../model/query.js";

// Every modifier's rules are in evaluate-modifiers.test.ts; this file covers meta fields,
// modes, states and paging.
const PERSON = { first_name: "Ada", last_name: "Lovelace", tags: ["math", "poetry"] };

describe("meta fields", () => {
  const record = makeRecord(
    { id: "from-data", created: "data-created" },
    { id: "0000000000000000000000ab", created: "2026-03-01T09:00:00.000000", lastUpdated: "2026-03-30T08:00:00.000000" },
  );
  it.each([
    { q: "id=0000000000000000000000ab", match: true },
    { q: "id=from-data", match: false },
    { q: "id__startswith=0000", match: true },
    { q: "id__orlist=x,0000000000000000000000ab", match: true },
    { q: "created=data-created", match: false },
    { q: "created__gte=2026-03-01", match: true },
    { q: "created__gte=2026", match: true },
    { q: "created__lt=2026-03-01T09:00:00.000001", match: true },
    { q: "created__gt=start_of_month", match: true },
    { q: "last_updated__gt=yesterday", match: false },
    { q: "last_updated__gt=last%20week", match: true },
    { q: "last_updated__lte=today", match: true },
    { q: "last_updated__ne=today", match: true },
  ])("$q -> $match", ({ q, match }) => {
    expect(matchesFilters(record, parseQs(q))).toBe(match);
  });

  it("entriesOf gives one string entry of the column", () => {
    expect(entriesOf(record, { field: "last_updated", meta: true })).toEqual([
      { kind: "string", text: "2026-03-30T08:00:00.000000", folded: "2026-03-30t08:00:00.000000", number: null },
    ]);
    expect(entriesOf(record, { field: "id", meta: false })[0]?.text).toBe("from-data");
  });

  it("entriesOf does not reach inherited properties of data", () => {
    expect(entriesOf(makeRecord({}), { field: "constructor", meta: false })).toEqual([]);
    expect(entriesOf(makeRecord({}), { field: "toString", meta: false })).toEqual([]);
  });
});

describe("mode", () => {
  const record = makeRecord(PERSON);
  it.each([
    { q: "", match: true },
    { q: "mode=OR", match: true },
    { q: "first_name=Ada&last_name=Lovelace", match: true },
    { q: "first_name=Ada&last_name=Byron", match: false },
    { q: "mode=OR&first_name=Ada&last_name=Byron", match: true },
    { q: "mode=OR&first_name=Grace&last_name=Byron", match: false },
    { q: "last_name=Lovelace&last_name=Byron", match: false }, // repeated eq: separate filters, AND
    { q: "mode=or&last_name=Lovelace&last_name=Byron", match: true },
    { q: "mode=OR&shoe_size__ne=9", match: true },
  ])("$q -> $match", ({ q, match }) => {
    expect(matchesFilters(record, parseQs(q))).toBe(match);
  });
});

describe("matchesQuery: states", () => {
  const live = makeRecord(PERSON);
  const gone = makeRecord(PERSON, { state: "deleted" });
  it.each([
    { q: "", live: true, gone: false },
    { q: "include_deleted=Y", live: true, gone: true },
    { q: "state=deleted", live: false, gone: true },
    { q: "include_deleted=Y&state=deleted", live: false, gone: true },
    { q: "include_deleted=Y&state=updated", live: true, gone: false },
    { q: "include_deleted=Y&last_name=Byron", live: false, gone: false },
  ])("$q", ({ q, live: liveMatch, gone: goneMatch }) => {
    const query = parseQs(q);
    expect(matchesQuery(live, query)).toBe(liveMatch);
    expect(matchesQuery(gone, query)).toBe(goneMatch);
  });

  it("matchesFilters ignores the state", () => {
    expect(matchesFilters(gone, parseQs("last_name=Lovelace"))).toBe(true);
  });
});

describe("evaluateList", () => {
  // Ten records in creation order; even ones are tagged "even", #3 and #8 are deleted.
  const records = Array.from({ length: 10 }, (_, i) =>
    makeRecord({ n: i, tags: i % 2 === 0 ? ["even"] : ["odd"] }, {
      id: String(i + 1).padStart(24, "0"),
      state: i === 3 || i === 8 ? "deleted" : "updated",
    }),
  );
  const ns = (q: string) => {
    const page = evaluateList(records, parseQs(q));
    return { total: page.total, ns: page.records.map((r) => r.data.n) };
  };

  it.each([
    { q: "", total: 8, expected: [0, 1, 2, 4, 5, 6, 7, 9] },
    { q: "page_size=3", total: 8, expected: [0, 1, 2] },
    { q: "page_size=3&page=2", total: 8, expected: [4, 5, 6] },
    { q: "page_size=3&page=3", total: 8, expected: [7, 9] },
    { q: "page_size=3&page=4", total: 8, expected: [] },
    { q: "limit=2&page=2", total: 8, expected: [2, 4] },
    { q: "tags=even", total: 4, expected: [0, 2, 4, 6] },
    { q: "tags=even&include_deleted=Y", total: 5, expected: [0, 2, 4, 6, 8] },
    { q: "state=deleted", total: 2, expected: [3, 8] },
    { q: "n__gte=5&page_size=2&page=2", total: 4, expected: [7, 9] },
    { q: "mode=OR&n=1&n=2", total: 2, expected: [1, 2] },
    { q: "tags=none", total: 0, expected: [] },
  ])("$q -> $total: $expected", ({ q, total, expected }) => {
    expect(ns(q)).toEqual({ total, ns: expected });
  });

  it("reads any iterable once, keeping its order", () => {
    function* reversed() {
      for (let i = records.length - 1; i >= 0; i--) yield records[i]!;
    }
    const query: ListQuery = { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 3 };
    expect(evaluateList(reversed(), query).records.map((r) => r.data.n)).toEqual([9, 7, 6]);
  });
});
