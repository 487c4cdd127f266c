/**
 * @module testing/records-write
 * Conformance of record reads and writes: `apply` (all or nothing, version and duplicate
 * checks), `getRecord`, `getRecords`, `listReferencing` and `summarizeTypes`.
 */
import { expect } from "vitest";
import { F1, F2, idsOf, insertAll, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import { LIST_ELEMENT_MIN_OVERHEAD } from "../schema/list-answer.js";
import type { StoredRecord } from "../model/record.js";

/** Declares the record tests. */
export function describeRecords(h: Harness): void {
  h.group("records: read and write", () => {
    h.it("an inserted record reads back equal", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, {
        text: "Zoë ☃ 😀",
        n: 42,
        d: -0.125,
        yes: true,
        no: false,
        none: null,
        list: ["a;home", "b"],
        nested: { a: [1, { b: null }], c: "x" },
      });
      await insertAll(s, [r]);
      expect(await s.getRecord(F1, "thing", r.id)).toEqual(r);
    });

    h.it("getRecord needs the right flock and type", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { a: 1 })]);
      expect(await s.getRecord(F2, "thing", testId(1))).toBeUndefined();
      expect(await s.getRecord(F1, "widget", testId(1))).toBeUndefined();
      expect(await s.getRecord(F1, "thing", testId(2))).toBeUndefined();
    });

    h.it("getRecord returns deleted records", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, {}, { state: "deleted" })]);
      expect((await s.getRecord(F1, "thing", testId(1)))?.state).toBe("deleted");
    });

    h.it("getRecords returns the found ones of the flock", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [
        rec(1, {}),
        rec(2, {}, { type: "widget" }),
        rec(3, {}, { state: "deleted" }),
        rec(4, {}, { flock: F2 }),
      ]);
      const found = await s.getRecords(F1, [
        { type: "thing", id: testId(1) },
        { type: "widget", id: testId(2) },
        { type: "thing", id: testId(3) },
        { type: "thing", id: testId(4) }, // other flock
        { type: "thing", id: testId(2) }, // wrong type
        { type: "thing", id: testId(99) }, // missing
      ]);
      expect(idsOf(found).sort()).toEqual([testId(1), testId(2), testId(3)]);
      expect(await s.getRecords(F1, [])).toEqual([]);
    });

    h.it("getDisplayValues finds what getRecords finds", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { big: "x".repeat(1000) }), rec(2, {}, { type: "widget", state: "deleted" }), rec(3, {}, { flock: F2 })]);
      const keys = [
        { type: "thing", id: testId(1) },
        { type: "widget", id: testId(2) },
        { type: "thing", id: testId(3) }, // other flock
        { type: "thing", id: testId(2) }, // wrong type
        { type: "thing", id: testId(1) }, // twice
      ];
      const rows = await s.getDisplayValues(F1, keys);
      expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { type: "thing", id: testId(1), displayValue: "record 1" },
        { type: "widget", id: testId(2), displayValue: "record 2" },
      ]);
      expect(await s.getDisplayValues(F1, [])).toEqual([]);
    });

    h.it("an update with the stored version replaces the record", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { a: 1, b: [1] });
      await insertAll(s, [r]);
      const next: StoredRecord = { ...r, data: { a: 2 }, displayValue: "new", state: "deleted", lastUpdated: stamp(50), version: 2 };
      await s.apply({ records: [{ kind: "update", record: next, expectedVersion: 1, changed: ["a", "b"] }] });
      expect(await s.getRecord(F1, "thing", r.id)).toEqual(next);
    });

    h.it("an update with a stale version is a conflict and changes nothing", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { a: 1 });
      await insertAll(s, [r]);
      const next = { ...r, data: { a: 2 }, version: 3 };
      await expect(s.apply({ records: [{ kind: "update", record: next, expectedVersion: 2, changed: ["a"] }] })).rejects.toMatchObject({
        code: "conflict",
      });
      expect(await s.getRecord(F1, "thing", r.id)).toEqual(r);
    });

    h.it("an update of a missing record is a conflict", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const ghost = rec(5, { a: 1 }, { version: 2 });
      await expect(s.apply({ records: [{ kind: "update", record: ghost, expectedVersion: 1, changed: [] }] })).rejects.toMatchObject({
        code: "conflict",
      });
      expect(await s.getRecord(F1, "thing", ghost.id)).toBeUndefined();
    });

    h.it("a duplicate insert is a conflict and the whole change set is rolled back", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const existing = rec(1, { a: 1 });
      const other = rec(2, { b: 1 });
      await insertAll(s, [existing, other]);
      const fresh = rec(3, { c: 1 });
      const otherNext = { ...other, data: { b: 2 }, version: 2 };
      const file = _file("c00000000000000000000001", testId(3));
      await expect(
        s.apply({
          records: [
            { kind: "insert", record: fresh },
            { kind: "update", record: otherNext, expectedVersion: 1, changed: ["b"] },
            { kind: "insert", record: { ...existing, data: { a: 9 } } },
          ],
          files: [file],
        }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getRecord(F1, "thing", fresh.id)).toBeUndefined();
      expect(await s.getRecord(F1, "thing", other.id)).toEqual(other);
      expect(await s.getRecord(F1, "thing", existing.id)).toEqual(existing);
      expect(await s.getFile(F1, file.id)).toBeUndefined();
    });

    h.it("a stale update after good writes rolls them all back", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { a: 1 });
      await insertAll(s, [r]);
      await expect(
        s.apply({
          records: [
            { kind: "insert", record: rec(2, {}) },
            { kind: "update", record: { ...r, version: 5 }, expectedVersion: 4, changed: [] },
          ],
        }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getRecord(F1, "thing", testId(2))).toBeUndefined();
      const listed = await s.listRecords(F1, "thing", {
        filters: [],
        mode: "AND",
        states: ["updated"],
        page: 1,
        pageSize: 10,
      });
      expect(listed.total).toBe(1);
    });

    h.it("two inserts of one id in one change set are a conflict", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, {});
      await expect(insertAll(s, [r, { ...r, data: { x: 1 } }])).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getRecord(F1, "thing", r.id)).toBeUndefined();
    });

    h.it("several writes in one change set all apply", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const a = rec(1, { a: 1 });
      await insertAll(s, [a]);
      await s.apply({
        records: [
          { kind: "update", record: { ...a, data: { a: 2 }, version: 2 }, expectedVersion: 1, changed: ["a"] },
          { kind: "insert", record: rec(2, { b: 1 }) },
          { kind: "insert", record: rec(3, { c: 1 }, { flock: F2 }) },
        ],
      });
      expect((await s.getRecord(F1, "thing", a.id))?.data).toEqual({ a: 2 });
      expect((await s.getRecord(F1, "thing", testId(2)))?.data).toEqual({ b: 1 });
      expect((await s.getRecord(F2, "thing", testId(3)))?.data).toEqual({ c: 1 });
    });

    h.it("an empty change set is accepted", async () => {
      await h.storage().apply({});
      await h.storage().apply({ records: [], files: [] });
    });

    h.it("results are copies: changing them changes nothing stored", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { list: ["a"], obj: { k: 1 } });
      await insertAll(s, [r]);
      (r.data.list as string[]).push("written after apply");
      const got = (await s.getRecord(F1, "thing", r.id))!;
      (got.data.list as string[]).push("b");
      (got.data.obj as Record<string, number>).k = 2;
      got.displayValue = "changed";
      expect(await s.getRecord(F1, "thing", r.id)).toEqual(rec(1, { list: ["a"], obj: { k: 1 } }));
    });
  });

  h.group("listReferencing", () => {
    h.it("finds scalar values and list entries (whole or before ';'), any type but data_event and any state", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const uri = `/${F1}/person/${testId(1)}/`;
      await insertAll(s, [
        rec(1, { name: "target" }, { type: "person" }),
        rec(2, { contact_ref: uri }),
        rec(3, { connections: ["/f1/person/a00000000000000000000063/;friend", `${uri};mother`] }),
        rec(4, { links: [uri] }),
        rec(5, { note: `${uri};not a list` }),
        rec(6, { contact_ref: `/${F1}/person/${testId(99)}/` }),
        rec(7, { ref: uri }, { type: "journal", state: "deleted" }),
        rec(8, { ref: uri }, { flock: F2 }),
        rec(9, { nested: { ref: uri } }),
        rec(10, { contact_ref: uri.slice(0, -1) }),
        rec(11, { contact_ref: uri.toUpperCase() }),
        // A data event is about the record, not a reference to it.
        rec(12, { context_ref: uri, tags: [uri] }, { type: "data_event" }),
      ]);
      const found = await s.listReferencing(F1, uri, 100);
      expect(idsOf(found).sort()).toEqual([2, 3, 4, 7].map((n) => testId(n)));
      expect(found.find((r) => r.id === testId(7))).toEqual(rec(7, { ref: uri }, { type: "journal", state: "deleted" }));
    });

    h.it("returns at most `limit` records", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const uri = `/${F1}/person/${testId(1)}/`;
      await insertAll(s, [2, 3, 4, 5].map((n) => rec(n, { contact_ref: uri })));
      const found = await s.listReferencing(F1, uri, 2);
      expect(found).toHaveLength(2);
      for (const id of idsOf(found)) expect([2, 3, 4, 5].map((n) => testId(n))).toContain(id);
      expect(await s.listReferencing(F1, `/${F1}/person/${testId(50)}/`, 10)).toEqual([]);
    });

    h.it("stops at maxDataLength with the 400 `answer too large`", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const uri = `/${F1}/person/${testId(1)}/`;
      const data = { contact_ref: uri, t: "x".repeat(500) };
      await insertAll(s, [2, 3, 4].map((n) => rec(n, data)));
      const each = JSON.stringify(data).length + LIST_ELEMENT_MIN_OVERHEAD;
      expect(await s.listReferencing(F1, uri, 10, 3 * each)).toHaveLength(3);
      await expect(s.listReferencing(F1, uri, 10, 3 * each - 1)).rejects.toMatchObject({ code: "bad_request", message: "answer too large" });
    });
  });

  h.group("summarizeTypes", () => {
    h.it("counts live records per type, with the latest change of any record", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [
        rec(1, {}, { type: "person", lastUpdated: stamp(40) }),
        rec(2, {}, { type: "person", lastUpdated: stamp(10) }),
        rec(3, {}, { type: "person", state: "deleted", lastUpdated: stamp(90) }),
        rec(4, {}, { type: "booking", lastUpdated: stamp(20) }),
        rec(5, {}, { type: "journal", state: "deleted", lastUpdated: stamp(30) }),
        rec(6, {}, { type: "activity", flock: F2, lastUpdated: stamp(99) }),
      ]);
      expect(await s.summarizeTypes(F1)).toEqual([
        { name: "booking", count: 1, lastModified: stamp(20) },
        { name: "journal", count: 0, lastModified: stamp(30) },
        { name: "person", count: 2, lastModified: stamp(90) },
      ]);
      expect(await s.summarizeTypes(F2)).toEqual([{ name: "activity", count: 1, lastModified: stamp(99) }]);
    });

    h.it("is empty for a flock without records", async () => {
      const s = h.storage();
      await seedFlocks(s);
      expect(await s.summarizeTypes(F1)).toEqual([]);
      expect(await s.summarizeTypes("nope")).toEqual([]);
    });

    h.it("follows updates", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, {}, { type: "person" });
      await insertAll(s, [r]);
      await s.apply({
        records: [{ kind: "update", record: { ...r, state: "deleted", lastUpdated: stamp(70), version: 2 }, expectedVersion: 1, changed: [] }],
      });
      expect(await s.summarizeTypes(F1)).toEqual([{ name: "person", count: 0, lastModified: stamp(70) }]);
    });
  });
}

// --- internal ---

function _file(id: string, recordId: string) {
  return {
    id,
    flock: F1,
    recordType: "thing",
    recordId,
    field: "files",
    filename: "a.txt",
    contentType: "text/plain",
    bytes: new Uint8Array([1, 2, 3]),
    created: stamp(1),
  };
}
