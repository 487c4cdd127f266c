/**
 * Text semantics are the same on PostgreSQL as on SQLite and in the reference evaluator:
 * the same records listed through both adapters give the same pages, byte for byte, for
 * exact (case-sensitive) matches, the `...i` modifiers and range filters over accented,
 * mixed-case, non-Latin and astral names, on a database whose default collation is
 * linguistic (ICU en-US, where the server has ICU). Also: values longer than the indexed
 * head, U+0000 in every kind of stored text, and binary files.
 */
import { createMemoryStorage, evaluateList, parseListQuery, type Storage, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const NAMES = [
  "Zoë", "zoe", "Zoe", "ZOE", "Émile", "emile", "Ångström", "Ärger", "arger", "Øre", "Straße", "STRASSE", "strasse",
  "İstanbul", "istanbul", "Istanbul", "ıspanak", "Σίσυφος", "σίσυφος", "ΣΊΣΥΦΟΣ", "Москва", "москва", "Ёлка", "елка",
  "東京", "とうきょう", "서울", "العربية", "עברית", "ñandú", "Ñandú", "naïve", "naive", "Œuvre", "œuvre", "ǅemal",
  "a\u0301", "á", "𝒜lice", "😀smile", "\uE000private", "\uFFFFlast", "Ada", "ada", "ADA", "Bob", "bob", "_under", "-dash",
  "10", "9", "Ω", "ω", "Ꙭ", "ﬀ", "ß",
];

const QUERIES = [
  "", "last_name=Zoë", "last_name=zoe", "last_name__eq=ADA", "last_name__ne=Ada", "last_name__startswith=Z",
  "last_name__startswithi=z", "last_name__startswithi=İ", "last_name__startswithi=σί", "last_name__near=STR",
  "last_name__near=ss", "last_name__contains=ö", "last_name__gt=Zoe", "last_name__gte=a", "last_name__lt=Zoë",
  "last_name__lte=ß", "last_name__gt=\uE000", "last_name__lt=😀", "last_name__gt=Москва", "last_name__lt=東京",
  "last_name__gt=a&last_name__lt=b", "last_name__orlist=Ada,ada,ADA", "last_name__gte=Œ&mode=OR&last_name__lt=A",
  "first_name__startswithi=É", "last_name__none=Ada,Bob", "page_size=7&page=3", "page_size=7&page=8",
];

const record = (i: number, name: string): StoredRecord => ({
  id: (i + 1).toString(16).padStart(24, "0"),
  flock: "f1",
  type: "person",
  state: i % 11 === 5 ? "deleted" : "updated",
  data: { last_name: name, first_name: NAMES[(i * 7) % NAMES.length]!, tags: [name.toLowerCase(), name.toUpperCase()] },
  displayValue: name,
  created: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(6, "0")}`,
  lastUpdated: "2026-01-02T00:00:00.000000",
  version: 1,
});

describe.skipIf(!inject("pgAvailable"))("the same pages on PostgreSQL as on SQLite", () => {
  let db: TestDatabase;
  let pg: Storage;
  const sqlite = createSqliteStorage({ path: ":memory:" });
  const records = NAMES.map((n, i) => record(i, n));

  beforeAll(async () => {
    db = await createTestDatabase();
    pg = await db.emptyStorage();
    for (const s of [pg, sqlite]) await s.apply({ records: records.map((r) => ({ kind: "insert" as const, record: r })) });
  });
  afterAll(async () => {
    await pg?.close();
    await sqlite.close();
    await db?.drop();
  });

  it("the test database's default collation is linguistic (so the adapter's own order is what is tested)", async () => {
    if (!db.linguistic) return; // a server without ICU: the default is what the server has
    const { rows } = await db.pool.query<{ linguistic: boolean }>("SELECT 'a' < 'B' AS linguistic");
    expect(rows[0]!.linguistic).toBe(true); // "C" order says 'B' < 'a'
  });

  it.each(QUERIES)("?%s", async (qs) => {
    const q = parseListQuery(new URLSearchParams(`${qs}&include_deleted=${qs.includes("ne") ? "N" : "Y"}`), {
      surface: "v2",
      now: new Date("2026-03-01T00:00:00Z"),
    });
    const [a, b] = [await pg.listRecords("f1", "person", q), await sqlite.listRecords("f1", "person", q)];
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const expected = evaluateList(records, q);
    expect(a.records.map((r) => r.id)).toEqual(expected.records.map((r) => r.id));
    expect(a.total).toBe(expected.total);
  });

  it("flocks and type summaries come in code-unit order", async () => {
    for (const s of [pg, sqlite]) {
      for (const id of ["b", "B", "a", "_x", "A"]) await s.createFlock({ identifier: id, name: `Flock ${id}`, created: "2026-01-01T00:00:00.000000" });
    }
    const ids = async (s: Storage) => (await s.listFlocks()).map((f) => f.identifier);
    expect(await ids(pg)).toEqual(["A", "B", "_x", "a", "b"]);
    expect(await ids(pg)).toEqual(await ids(sqlite));
  });
});

describe.skipIf(!inject("pgAvailable"))("values PostgreSQL text cannot hold as they are", () => {
  let db: TestDatabase;
  let pg: Storage;
  const memory = createMemoryStorage();
  beforeAll(async () => {
    db = await createTestDatabase();
    pg = await db.emptyStorage();
  });
  afterAll(async () => {
    await pg?.close();
    await db?.drop();
  });

  const long = (head: string, n: number) => `${head}${"é".repeat(n)}`; // 2 bytes per é
  const data = [
    { note: long("A", 600), tags: [long("t", 700), "short"] }, // 1,201 and 1,401 bytes: past the indexed head
    { note: long("A", 600) + "z", tags: [long("t", 700) + "\u0000"] },
    { note: long("A", 511), tags: ["x\u0000y", "x"] }, // exactly 1,023 bytes
    { note: long("A", 512), tags: ["\u0001\u0000\u0001"] },
    { note: "A\u0000", tags: ["/f1/person/" + "b".repeat(24) + "/\u0000"] },
  ];
  const stored = data.map(
    (d, i): StoredRecord => ({
      ...record(i, "x"),
      type: "thing",
      state: "updated",
      data: d,
      displayValue: `shown\u0000${i}\u0001`,
    }),
  );

  it("round-trip through records, display values, lists and filters like the reference adapter", async () => {
    for (const s of [pg, memory]) await s.apply({ records: stored.map((record) => ({ kind: "insert" as const, record })) });
    expect(await pg.getRecords("f1", stored.map((r) => ({ type: "thing", id: r.id })))).toEqual(stored);
    const filters: [string, string][] = [
      ["note", long("A", 600)],
      ["note", long("A", 600) + "z"],
      ["note", long("A", 511)],
      ["tags", long("t", 700) + "\u0000"],
      ["tags", "x\u0000y"],
      ["tags", "\u0001\u0000\u0001"],
    ];
    for (const [field, text] of filters) {
      for (const op of ["eq", "ne", "gt", "gte", "lt", "lte", "startswith", "startswithi", "contains", "near"] as const) {
        for (const value of [text, text.slice(0, 300), text.slice(0, 700)]) {
          const q = { filters: [{ field, meta: false, op, values: [{ text: value }] }], mode: "AND" as const, states: ["updated" as const], page: 1, pageSize: 10 };
          const got = await pg.listRecords("f1", "thing", q);
          const expected = evaluateList(stored, q);
          expect({ op, ids: got.records.map((r) => r.id), total: got.total }).toEqual({ op, ids: expected.records.map((r) => r.id), total: expected.total });
        }
      }
    }
    // A meta filter value holding U+0000 is answered, not an error.
    const meta = parseListQuery(new URLSearchParams("created__gte=2026-01-01T00:00:01%00x&id__ne=%00"), { surface: "v2", now: new Date() });
    expect((await pg.listRecords("f1", "thing", meta)).records.map((r) => r.id)).toEqual(evaluateList(stored, meta).records.map((r) => r.id));
    // A reference target holding U+0000 is found.
    expect((await pg.listReferencing("f1", "/f1/person/" + "b".repeat(24) + "/\u0000", 10)).map((r) => r.id)).toEqual([stored[4]!.id]);
  });

  it("keep files' bytes exactly (bytea), and names and errors holding U+0000", async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    const file = {
      id: "d".repeat(24),
      flock: "f1",
      recordType: "thing",
      recordId: stored[0]!.id,
      field: "doc",
      filename: "a\u0000b.bin",
      contentType: "application/octet-stream",
      bytes,
      created: "2026-01-01T00:00:00.000000",
    };
    await pg.apply({ files: [file] });
    const got = await pg.getFile("f1", file.id);
    expect({ ...got, bytes: undefined }).toEqual({ ...file, bytes: undefined });
    expect(Buffer.compare(Buffer.from(got!.bytes), Buffer.from(bytes))).toBe(0);
    await pg.createFlock({ identifier: "nul", name: "N\u0000L \u0001", created: "2026-01-01T00:00:00.000000" });
    expect((await pg.getFlock("nul"))?.name).toBe("N\u0000L \u0001");
    await pg.putSetting("s", "v\u0000");
    expect(await pg.getSetting("s")).toBe("v\u0000");
  });
});
