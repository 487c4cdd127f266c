/**
 * `records_entries(data, name, rid)` (migration 0011), which a filter on a field the value
 * index does not keep reads, gives exactly the `record_values` rows that `valueRows` gives
 * for a write, but for a timestamp's folded form (`isStampText`), which it keeps as rows
 * stored before that did, and which the compiler reads first: random JSON values (any
 * Unicode, numbers of every magnitude, nested objects and lists, long texts) compared row
 * for row. Data the function cannot read
 * (`\u0000`, lone surrogates) or holds a character the server's ICU folds otherwise than
 * JavaScript keeps every field's entries, and a filter on such a record's unindexed field
 * still answers as the reference evaluator. The migration's fill marks the fields an older
 * version indexed that the defaults do not want.
 */
import { evaluateList, parseListQuery, type Storage, type StoredRecord } from "@records-service/core";
import { isStampText, PG_VALUE_KEY_BYTES, valueRows } from "@records-service/sql";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { storesAllEntries } from "./field-indexes.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

/** A `record_values` row as comparable text: kind, hex of text and text_long, folded and folded_long, num. */
type _Shown = [number, string, string | null, string | null, string | null, number | null];

describe.skipIf(!inject("pgAvailable"))("records_entries (PostgreSQL)", () => {
  let db: TestDatabase;
  let storage: Storage;
  let pattern: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    storage = await db.emptyStorage();
    pattern = (await db.pool.query<{ pattern: string }>("SELECT pattern FROM records_entries_rule")).rows[0]!.pattern;
  });
  afterAll(async () => {
    await storage?.close();
    await db?.drop();
  });

  /** What the function answers for field `f` of `data`'s JSON text, sorted. */
  const fromSql = async (data: Record<string, unknown>): Promise<_Shown[]> => {
    const { rows } = await db.pool.query<{ kind: number; text: Buffer; text_long: Buffer | null; folded: Buffer | null; folded_long: Buffer | null; num: number | null }>(
      "SELECT kind, text, text_long, folded, folded_long, num FROM records_entries($1, 'f', 0)",
      [JSON.stringify(data)],
    );
    const hex = (b: Buffer | null) => (b === null ? null : b.toString("hex"));
    return rows.map((r): _Shown => [r.kind, hex(r.text)!, hex(r.text_long), hex(r.folded), hex(r.folded_long), r.num]).sort(_order);
  };

  /** What a write stores for the same field (write.ts: valueRows of the parsed data, cut at the key length), once per (kind, bytes). */
  const fromJs = (data: Record<string, unknown>): _Shown[] => {
    const value = (JSON.parse(JSON.stringify(data)) as Record<string, unknown>).f;
    const cut = (text: string): [string, string | null] => {
      const b = Buffer.from(text, "utf8");
      return b.length > PG_VALUE_KEY_BYTES ? [b.subarray(0, PG_VALUE_KEY_BYTES).toString("hex"), b.toString("hex")] : [b.toString("hex"), null];
    };
    const seen = new Map<string, _Shown>();
    for (const v of valueRows(value)) {
      const [text, textLong] = cut(v.text);
      // The function keeps a timestamp's folded form, which valueRows leaves out (see above).
      const fold = v.folded ?? (v.kind === 0 && isStampText(v.text) ? v.text.toLowerCase() : null);
      const [folded, foldedLong] = fold === null ? [null, null] : cut(fold);
      // -0 is stored as 0 (its JSON text is "0").
      seen.set(`${v.kind}:${text}:${textLong}`, [v.kind, text, textLong, folded, foldedLong, v.num === 0 ? 0 : v.num]);
    }
    return [...seen.values()].sort(_order);
  };

  it("gives valueRows' rows for random JSON values", async () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.constantFrom("İstanbul", "ΣΑΣ ΟΔΟΣ", "ǅ", "ß", "ﬃ", "Ⅻ", "ᾼ", "2026-11-29T11:50:00.000000", "2026-11-29T"));
    const num = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom(1e21, 1e-7, 123456789012345680000, 5e-324, -0, 0.1));
    const scalar = fc.oneof(text, num, fc.boolean(), fc.constant(null));
    const value = fc.oneof(
      scalar,
      fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 3 })), { maxLength: 6 }),
      fc.dictionary(fc.string({ unit: "binary", maxLength: 5 }), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxKeys: 4 }),
      fc.string({ minLength: 300, maxLength: 700, unit: "binary" }), // past 1,024 bytes: the *_long columns
    );
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        const data = { other: 1, f: v };
        // Data the function cannot read is answered from record_values (the test below).
        fc.pre(!storesAllEntries(JSON.stringify(data), pattern));
        expect(await fromSql(data)).toEqual(fromJs(data));
      }),
      { numRuns: 1500 },
    );
  });

  it("gives no rows for a missing field or null, and reads a field whose name needs escaping", async () => {
    expect(await fromSql({ g: 1 })).toEqual([]);
    expect(await fromSql({ f: null })).toEqual([]);
    expect(await fromSql({ f: [null, null] })).toEqual([]);
    const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM records_entries($1, 'a\"b', 0)", [JSON.stringify({ 'a"b': ["x", "y"] })]);
    expect(rows[0]!.n).toBe(2);
  });

  it("answers filters on unindexed fields of data the JSON functions refuse from the entries such a record keeps", async () => {
    const at = (n: number, data: Record<string, unknown>): StoredRecord => ({
      id: n.toString(16).padStart(24, "0"),
      flock: "f1",
      type: "thing",
      state: "updated",
      data,
      displayValue: `t${n}`,
      created: "2026-01-01T00:00:00.000000",
      lastUpdated: "2026-01-01T00:00:00.000000",
      version: 1,
    });
    // A character this server's ICU folds otherwise than JavaScript, where there is one.
    const folds = (await db.pool.query<{ folds: number[] }>("SELECT folds FROM records_entries_rule")).rows[0]!.folds;
    const odd = folds.length > 0 ? String.fromCodePoint(folds[0]!) : "Q";
    const records = [
      at(5, { note: `x${odd}`, shoe: "WIDE" }),
      at(1, { note: "a\u0000b", shoe: "Wide" }),
      at(2, { note: "lone \ud800", shoe: ["wide", 41] }),
      at(3, { note: "plain", shoe: 41 }),
      at(4, { note: ["x\u0000", "Wide"], shoe: null }),
    ];
    await storage.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
    // A later update that makes a record unreadable rewrites all its fields' entries.
    const next = { ...records[3]!, data: { note: "plain\u0000", shoe: 41 }, version: 2 };
    await storage.apply({ records: [{ kind: "update", record: next, expectedVersion: 1, changed: ["note"] }] });
    const live = [records[0]!, records[1]!, records[2]!, next, records[4]!];
    for (const qs of [`note__near=${encodeURIComponent(odd.toLowerCase())}`, `note__startswithi=X${encodeURIComponent(odd.toLowerCase())}`, "shoe=41", "shoe__near=WIDE", "note__contains=b", "note__startswith=lone", "note=Wide", "shoe__ne=41", "shoe__gte=40"]) {
      const query = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date() });
      const got = await storage.listRecords("f1", "thing", query);
      expect({ qs, ids: got.records.map((r) => r.id) }).toEqual({ qs, ids: evaluateList(live, query).records.map((r) => r.id) });
    }
  });

  it("marks, when the migration asks, the fields an older version indexed that the defaults do not want, and removes their entries", async () => {
    const s = await db.emptyStorage();
    try {
      const person = (n: number, data: Record<string, unknown>): StoredRecord => ({
        id: (100 + n).toString(16).padStart(24, "0"),
        flock: "f1",
        type: "person",
        state: "updated",
        data,
        displayValue: `p${n}`,
        created: "2026-01-01T00:00:00.000000",
        lastUpdated: "2026-01-01T00:00:00.000000",
        version: 1,
      });
      // As an older version wrote them: every field indexed (here through a ready row, then forgotten).
      await s.setFieldIndex("f1", "person", "shoe", "index", "operator");
      await s.stepFieldIndexes(10);
      const records = [person(1, { last_name: "Ada", shoe: 41 }), person(2, { last_name: "Bo", shoe: "Wide" })];
      await s.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
      await db.pool.query("DELETE FROM field_indexes; INSERT INTO field_indexes_fill (pending) VALUES (1)");
      const reopened = await createPostgresStorage({ url: db.url });
      try {
        expect(await reopened.listFieldIndexes("f1", "person")).toEqual([
          { flock: "f1", type: "person", field: "shoe", state: "dropped", source: "migration", progress: 0 },
        ]);
        while ((await reopened.stepFieldIndexes(1)) >= 1);
        expect(await reopened.listFieldIndexes("f1", "person")).toEqual([]);
        const { rows } = await db.pool.query<{ name: string }>(
          "SELECT DISTINCT f.name FROM record_values v JOIN fields f ON f.fid = v.fid JOIN collections c ON c.cid = f.cid WHERE c.type = 'person' ORDER BY 1",
        );
        expect(rows.map((r) => r.name)).toEqual(["last_name"]);
        for (const qs of ["shoe=41", "shoe__near=wide", "last_name=Bo"]) {
          const query = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date() });
          const got = await reopened.listRecords("f1", "person", query);
          expect({ qs, ids: got.records.map((r) => r.id) }).toEqual({ qs, ids: evaluateList(records, query).records.map((r) => r.id) });
        }
      } finally {
        await reopened.close();
      }
    } finally {
      await s.close();
    }
  });
});

function _order(a: _Shown, b: _Shown): number {
  const ka = JSON.stringify(a);
  const kb = JSON.stringify(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
