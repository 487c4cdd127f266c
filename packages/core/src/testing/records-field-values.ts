/**
 * @module testing/records-field-values
 * Conformance of `listFieldValues`: the matches of a query (filters, mode, states, as for
 * lists) in insertion order, each as its id and the stored values of the fields asked for,
 * every JSON kind given back as stored; absent fields undefined; other flocks and types,
 * and records past the limit, left out; a name that is not a field name refused. And of
 * `countFieldValues`: the same matches grouped by those values, counted, in the order of
 * each group's first match.
 */
import { expect } from "vitest";
import { F1, F2, flt, insertAll, query, rec, seedFlocks, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { ScanQuery } from "../storage/record-store.js";

/** Declares the field-values tests. */
export function describeFieldValues(h: Harness): void {
  h.group("listFieldValues", () => {
    h.it("gives each match's id and the stored values of the fields asked for, in insertion order", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const odd = { text: "é \u0000 \"q\" \\ ☃ 𝄞", n: 2.5, big: -12345678901, yes: false, none: null, list: ["a;home", 3, true], obj: { ref: "/f1/x/" } };
      await insertAll(s, [
        rec(1, { start: "2026-01-02", title: "B", ...odd }),
        rec(2, { start: "2026-01-01" }),
        rec(3, { start: "2026-01-03", title: "gone" }, { state: "deleted" }),
        rec(4, { start: "2026-01-01", title: "other flock" }, { flock: F2 }),
        rec(5, { start: "2026-01-01", title: "other type" }, { type: "other" }),
      ]);
      const fields = ["start", "title", "text", "n", "big", "yes", "none", "list", "obj", "missing"];
      const rows = await s.listFieldValues(F1, "thing", _q([]), fields, 100);
      expect(rows).toEqual([
        { id: testId(1), values: ["2026-01-02", "B", odd.text, 2.5, -12345678901, false, null, ["a;home", 3, true], { ref: "/f1/x/" }, undefined] },
        { id: testId(2), values: ["2026-01-01", undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined] },
      ]);
      // Absent is undefined, a stored null is null: the two stay apart.
      expect(rows[1]!.values.length).toBe(fields.length);
      expect(rows[0]!.values[6]).toBeNull();
      expect(rows[1]!.values[6]).toBeUndefined();
    });

    h.it("filters as lists do (ranges, OR mode, states), stops at the limit, and knows no unknown type", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, Array.from({ length: 8 }, (_, i) => rec(i + 1, { day: `2026-01-0${i + 1}`, tag: i % 2 ? "odd" : "even" }, i === 6 ? { state: "deleted" } : {})));
      const ids = async (q: ScanQuery, limit = 100) => (await s.listFieldValues(F1, "thing", q, ["day"], limit)).map((r) => r.id);
      expect(await ids(_q([flt("day", "gte", "2026-01-03"), flt("day", "lte", "2026-01-05")]))).toEqual([3, 4, 5].map((n) => testId(n)));
      expect(await ids({ ..._q([flt("day", "eq", "2026-01-01"), flt("tag", "eq", "odd")]), mode: "OR" })).toEqual([1, 2, 4, 6, 8].map((n) => testId(n)));
      expect(await ids({ ..._q([flt("tag", "eq", "even")]), states: ["deleted"] })).toEqual([testId(7)]);
      expect(await ids(_q([flt("tag", "or", "odd", "even")]), 3)).toEqual([1, 2, 3].map((n) => testId(n)));
      expect(await ids(_q([flt("nothing", "eq", "x")]))).toEqual([]);
      expect(await s.listFieldValues(F1, "nothing", _q([]), ["day"], 10)).toEqual([]);
      expect(await s.listFieldValues(F1, "thing", _q([]), [], 2)).toEqual([{ id: testId(1), values: [] }, { id: testId(2), values: [] }]);
    });

    h.it("refuses a name that is not a field name", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { a: 1 })]);
      for (const bad of ["a.b", "$", "a\"b", "", "1a"]) {
        await expect(s.listFieldValues(F1, "thing", _q([]), ["a", bad], 10)).rejects.toMatchObject({ code: "bad_request", message: "invalid field" });
      }
    });
  });

  h.group("countFieldValues", () => {
    h.it("counts the matches by the stored values of the fields asked for, each group at its first match", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const text = "é \u0000 \"q\" \\ ☃ 𝄞";
      await insertAll(s, [
        rec(1, { ref: "/f1/b/1/", status: "booked", qty: 2 }),
        rec(2, { ref: "/f1/b/2/" }),
        rec(3, { ref: "/f1/b/1/", status: "booked", qty: 2 }),
        rec(4, { ref: "/f1/b/1/", status: null, qty: 2 }),
        rec(5, { ref: "/f1/b/1/", status: "booked", qty: "2" }),
        rec(6, { ref: "/f1/b/2/" }),
        rec(7, { ref: "/f1/b/1/", status: "booked", qty: 2 }, { state: "deleted" }),
        rec(8, { ref: "/f1/b/1/", status: "booked", qty: 2 }, { flock: F2 }),
        rec(9, { ref: "/f1/b/1/", status: "booked", qty: 2 }, { type: "other" }),
        rec(10, { ref: text, status: ["a", 1], qty: { n: 1.5 } }),
        rec(11, { ref: text, status: ["a", 1], qty: { n: 1.5 } }),
        rec(12, { ref: "/f1/b/1/", status: "booked", qty: 2, other: "ignored" }),
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["ref", "status", "qty"])).toEqual([
        { values: ["/f1/b/1/", "booked", 2], count: 3 },
        { values: ["/f1/b/2/", undefined, undefined], count: 2 },
        // A stored null is a value of its own, apart from absent; "2" apart from 2.
        { values: ["/f1/b/1/", null, 2], count: 1 },
        { values: ["/f1/b/1/", "booked", "2"], count: 1 },
        { values: [text, ["a", 1], { n: 1.5 }], count: 2 },
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["missing"])).toEqual([{ values: [undefined], count: 9 }]);
      expect(await s.countFieldValues(F1, "thing", _q([]), [])).toEqual([{ values: [], count: 9 }]);
    });

    h.it("filters as lists do (ranges, OR mode, states), and counts nothing for no match or an unknown type", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, Array.from({ length: 8 }, (_, i) => rec(i + 1, { day: `2026-01-0${i + 1}`, tag: i % 2 ? "odd" : "even" }, i === 6 ? { state: "deleted" } : {})));
      const counts = (q: ScanQuery) => s.countFieldValues(F1, "thing", q, ["tag"]);
      expect(await counts(_q([flt("day", "gte", "2026-01-03"), flt("day", "lte", "2026-01-06")]))).toEqual([
        { values: ["even"], count: 2 },
        { values: ["odd"], count: 2 },
      ]);
      expect(await counts({ ..._q([flt("day", "eq", "2026-01-02"), flt("tag", "eq", "even")]), mode: "OR" })).toEqual([
        { values: ["even"], count: 3 },
        { values: ["odd"], count: 1 },
      ]);
      expect(await counts({ ..._q([flt("tag", "eq", "even")]), states: ["deleted"] })).toEqual([{ values: ["even"], count: 1 }]);
      expect(await counts(_q([flt("day", "or", "2026-01-04", "2026-01-08")]))).toEqual([{ values: ["odd"], count: 2 }]);
      expect(await counts(_q([flt("nothing", "eq", "x")]))).toEqual([]);
      expect(await s.countFieldValues(F1, "thing", _q([flt("nothing", "eq", "x")]), [])).toEqual([]);
      expect(await s.countFieldValues(F1, "nothing", _q([]), ["tag"])).toEqual([]);
    });

    h.it("reads id, created and last_updated from the record itself, as filters do", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const at = (n: number) => ({ created: `2026-0${n}-01T10:00:00.000000`, lastUpdated: `2026-0${n}-02T10:00:00.000000` });
      // A data field of the same name does not count: the name means the column.
      await insertAll(s, [rec(1, { created: "x" }, at(1)), rec(2, { tag: "\u0000" }, at(2)), rec(3, {}, at(1))]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["created", "tag"])).toEqual([
        { values: ["2026-01-01T10:00:00.000000", undefined], count: 2 },
        { values: ["2026-02-01T10:00:00.000000", "\u0000"], count: 1 },
      ]);
      expect(await s.listFieldValues(F1, "thing", _q([]), ["id", "last_updated"], 10)).toEqual([1, 2, 3].map((n) => ({ id: testId(n), values: [testId(n), at(n === 3 ? 1 : n).lastUpdated] })));
    });

    h.it("refuses a name that is not a field name", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { a: 1 })]);
      for (const bad of ["a.b", "$", "a\"b", "", "1a"]) {
        await expect(s.countFieldValues(F1, "thing", _q([]), ["a", bad])).rejects.toMatchObject({ code: "bad_request", message: "invalid field" });
      }
    });
  });
}

// --- internal ---

function _q(filters: ScanQuery["filters"]): ScanQuery {
  const { mode, states } = query(filters);
  return { filters, mode, states };
}
