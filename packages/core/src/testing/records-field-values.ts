/**
 * @module testing/records-field-values
 * Conformance of `listFieldValues`: the matches of a query (filters, mode, states, as for
 * lists) in insertion order, each as its id and the stored values of the fields asked for,
 * every JSON kind given back as stored; absent fields undefined; other flocks and types,
 * and records past the limit, left out; a name that is not a field name refused. And of
 * `countFieldValues`: the same matches grouped by those values, counted, in the order of
 * each group's first match; with a cut, dates and timestamps (data fields, list entries and
 * the record's own timestamps) grouped by their year, month or day, other values whole.
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

    h.it("reads back a lone surrogate as stored (a record's data holding one, in a field asked for or not)", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const lone = { a: "x\ud800y", b: ["\udfff", 1], c: { d: "\udbff" } };
      await insertAll(s, [rec(1, { ...lone, plain: "p" }), rec(2, { plain: "q", other: "\ud800" }), rec(3, { a: "ok" })]);
      expect(await s.listFieldValues(F1, "thing", _q([]), ["a", "b", "c", "plain"], 10)).toEqual([
        { id: testId(1), values: [lone.a, lone.b, lone.c, "p"] },
        { id: testId(2), values: [undefined, undefined, undefined, "q"] },
        { id: testId(3), values: ["ok", undefined, undefined, undefined] },
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["a"])).toEqual([
        { values: [lone.a], count: 1 },
        { values: [undefined], count: 1 },
        { values: ["ok"], count: 1 },
      ]);
      const got = await s.listRecords(F1, "thing", query([flt("a", "eq", lone.a)], { sort: { field: "a", meta: false, descending: false } }));
      expect(got.records.map((r) => r.data)).toEqual([{ ...lone, plain: "p" }]);
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
      // Only the record's columns: the data (record 2's holds U+0000) is not needed.
      expect(await s.countFieldValues(F1, "thing", _q([]), ["created"])).toEqual([
        { values: ["2026-01-01T10:00:00.000000"], count: 2 },
        { values: ["2026-02-01T10:00:00.000000"], count: 1 },
      ]);
      expect(await s.listFieldValues(F1, "thing", _q([]), ["id", "last_updated"], 10)).toEqual([1, 2, 3].map((n) => ({ id: testId(n), values: [testId(n), at(n === 3 ? 1 : n).lastUpdated] })));
    });

    h.it("cuts dates and timestamps to their year, month or day before grouping: list entries alike, other values whole", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const list = ["2026-01-02", "2026-01-20T08:00:00.000000", "vip", 3, null, true];
      await insertAll(s, [
        rec(1, { d: "2026-01-15" }),
        // Text with a zone offset is cut as written (its own date), as created is stored in UTC without one.
        rec(2, { d: "2026-01-31T23:30:00+02:00" }),
        rec(3, { d: "2026-02-01T00:00:00.000000" }),
        rec(4, { d: null }),
        rec(5, {}),
        rec(6, { d: "vip" }),
        rec(7, { d: "2026-1-5" }),
        rec(8, { d: 2026 }),
        rec(9, { d: list }),
        rec(10, { d: ["2026-01-05T10:00:00Z", "2026-01-09", "vip", 3, null, true] }),
        rec(11, { d: [] }),
        rec(12, { d: { at: "2026-01-15" } }),
        rec(13, { d: "\uff12\uff10\uff12\uff16-01-15" }),
        rec(14, { d: [["2026-03-04"], "2026-03-05"] }),
        // A U+0000 (PostgreSQL reads such data whole) and an escape past the cut.
        rec(15, { d: "2026-01-15\u0000x" }),
        rec(16, { d: "2026-01-16 \"q\" \\" }),
        rec(17, { d: "2026-01-15" }, { state: "deleted" }),
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["d"], [7])).toEqual([
        { values: ["2026-01"], count: 4 },
        { values: ["2026-02"], count: 1 },
        { values: [null], count: 1 },
        { values: [undefined], count: 1 },
        { values: ["vip"], count: 1 },
        { values: ["2026-1-5"], count: 1 },
        { values: [2026], count: 1 },
        { values: [["2026-01", "2026-01", "vip", 3, null, true]], count: 2 },
        { values: [[]], count: 1 },
        { values: [{ at: "2026-01-15" }], count: 1 },
        { values: ["\uff12\uff10\uff12\uff16-01-15"], count: 1 },
        { values: [[["2026-03"], "2026-03"]], count: 1 },
      ]);
      expect((await s.countFieldValues(F1, "thing", _q([]), ["d"], [4]))[0]).toEqual({ values: ["2026"], count: 5 });
      const days = await s.countFieldValues(F1, "thing", _q([]), ["d"], [10]);
      expect(days.slice(0, 3)).toEqual([
        { values: ["2026-01-15"], count: 2 },
        { values: ["2026-01-31"], count: 1 },
        { values: ["2026-02-01"], count: 1 },
      ]);
      expect(days.find((g) => Array.isArray(g.values[0]) && g.values[0].length === 6)).toEqual({ values: [["2026-01-02", "2026-01-20", "vip", 3, null, true]], count: 1 });
      // Without a cut (or with none for that field), values stay as stored.
      expect((await s.countFieldValues(F1, "thing", _q([]), ["d"])).length).toBe(16);
      expect((await s.countFieldValues(F1, "thing", _q([]), ["d"], [undefined])).length).toBe(16);
    });

    h.it("cuts created and last_updated, the record's own columns, and leaves an id whole", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const at = (month: number, day: number) => ({ created: `2025-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T10:00:${String(day).padStart(2, "0")}.123456`, lastUpdated: `2026-0${month % 3 + 1}-01T00:00:00.000000` });
      await insertAll(s, Array.from({ length: 36 }, (_, i) => rec(i + 1, { tag: i % 2 ? "odd" : "even" }, at((i % 12) + 1, Math.floor(i / 12) + 1))));
      const byMonth = await s.countFieldValues(F1, "thing", _q([]), ["created"], [7]);
      expect(byMonth).toEqual(Array.from({ length: 12 }, (_, m) => ({ values: [`2025-${String(m + 1).padStart(2, "0")}`], count: 3 })));
      expect(await s.countFieldValues(F1, "thing", _q([flt("created", "gte", "2025-11-01")]), ["created", "tag"], [4, undefined])).toEqual([
        { values: ["2025", "even"], count: 3 },
        { values: ["2025", "odd"], count: 3 },
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([]), ["last_updated", "created"], [10, 4])).toEqual([
        { values: ["2026-02-01", "2025"], count: 12 },
        { values: ["2026-03-01", "2025"], count: 12 },
        { values: ["2026-01-01", "2025"], count: 12 },
      ]);
      expect(await s.countFieldValues(F1, "thing", _q([flt("created", "lt", "2025-01-02")]), ["id"], [4])).toEqual([{ values: [testId(1)], count: 1 }]);
    });

    h.it("refuses a cut that is not a year, month or day, and more cuts than fields", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { a: "2026-01-01" })]);
      for (const bad of [[5], [0], [7, 7], ["7"]] as unknown as (7 | undefined)[][]) {
        await expect(s.countFieldValues(F1, "thing", _q([]), ["a"], bad)).rejects.toMatchObject({ code: "bad_request", message: "invalid cut" });
      }
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
