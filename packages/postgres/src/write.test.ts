/**
 * The write path's multi-row inserts: a large change set is a few statements, its records
 * list in the set's order with every index row, an update may follow an insert of the same
 * record in one set, and an id that exists or repeats fails the whole set as a conflict.
 */
import { parseListQuery, updateWrite, type Storage, type StoredRecord } from "@records-service/core";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./testing.js";
import { INSERT_CHUNK } from "./write.js";

const rec = (n: number, data: Record<string, unknown> = { n, name: `Name ${n % 7}` }, type = "person"): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f1",
  type,
  state: "updated",
  data,
  displayValue: `r${n}`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});
const inserts = (records: StoredRecord[]) => records.map((record) => ({ kind: "insert" as const, record }));
const q = (qs: string) => parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date() });

describe.skipIf(!inject("pgAvailable"))("apply's multi-row inserts (PostgreSQL)", () => {
  let db: TestDatabase;
  let storage: Storage;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await storage?.close();
    await db?.drop();
  });

  it("writes 2.5 chunks of inserts in a handful of statements, listed in the set's order", async () => {
    storage = await db.emptyStorage();
    // The collection and its fields exist, so the set creates no catalog rows.
    await storage.apply({ records: inserts([rec(1, { n: 1, name: "Name 1", tags: ["odd"] })]) });
    const n = Math.floor(INSERT_CHUNK * 2.5);
    // Ids out of order, so the list order can only come from the set's order.
    const records = Array.from({ length: n }, (_, i) => rec(1_000_000 - i, { n: i, name: `Name ${i % 7}`, tags: i % 2 ? ["odd"] : null }));
    const statements = await _countStatements(db.pool, () => storage.apply({ records: inserts(records) }));
    // BEGIN, the index registry (under its lock), 3 record inserts, value rows, kept counts,
    // the change log (head, rows), COMMIT.
    expect(statements).toBeLessThanOrEqual(11);

    const page = await storage.listRecords("f1", "person", { ...q("page=2"), pageSize: 1000 });
    expect(page.total).toBe(n + 1);
    expect(page.records.map((r) => r.id)).toEqual(records.slice(999, 1999).map((r) => r.id));
    const odd = await storage.listRecords("f1", "person", q("tags=odd&name=Name%203"));
    expect(odd.total).toBe(records.filter((r) => r.data.n as number % 2 === 1 && r.data.name === "Name 3").length);
    const last = records[n - 1]!;
    expect((await storage.listRecords("f1", "person", q(`n=${last.data.n as number}`))).records.map((r) => r.id)).toEqual([last.id]);
  });

  it("applies an update of a record inserted earlier in the same set", async () => {
    storage = await db.emptyStorage();
    const a = rec(1);
    const changed = { ...a, data: { n: 1, name: "Changed" }, version: 2 };
    await storage.apply({
      records: [...inserts([a, rec(2)]), updateWrite(a, changed), ...inserts([rec(3)])],
    });
    expect((await storage.getRecord("f1", "person", a.id))?.version).toBe(2);
    expect((await storage.listRecords("f1", "person", q("name=Changed"))).records.map((r) => r.id)).toEqual([a.id]);
    expect((await storage.listRecords("f1", "person", q(""))).records.map((r) => r.id)).toEqual([a.id, rec(2).id, rec(3).id]);
  });

  it("stores a value's folded form only where folding changes it, long values too", async () => {
    storage = await db.emptyStorage();
    const long = "x".repeat(1100);
    // Fields the value index keeps by default (isIndexedByDefault).
    await storage.apply({ records: inserts([rec(1, { last_name: "Lovelace", tags: ["vip", "VIP", long, `${long}Y`] })]) });
    const { rows } = await db.pool.query<{ t: string; f: string | null; long: boolean }>(
      `SELECT left(convert_from(coalesce(text_long, text), 'UTF8'), 3) AS t, left(convert_from(coalesce(folded_long, folded), 'UTF8'), 3) AS f,
              folded_long IS NOT NULL AS long
       FROM record_values ORDER BY fid, text, folded_long IS NOT NULL`,
    );
    expect(rows).toEqual([
      { t: "Lov", f: "lov", long: false },
      { t: "VIP", f: "vip", long: false },
      { t: "vip", f: null, long: false },
      { t: "xxx", f: null, long: false },
      { t: "xxx", f: "xxx", long: true },
    ]);
    expect((await storage.listRecords("f1", "person", q("tags__startswithi=VI"))).total).toBe(1);
    expect((await storage.listRecords("f1", "person", q("tags__near=XY"))).total).toBe(1);
  });

  it.each([
    { name: "an id repeated within the set", set: [rec(10), rec(11), rec(10)], id: rec(10).id },
    { name: "an id that exists (another type)", set: [rec(12), rec(5, { n: 5 }, "membership")], id: rec(5).id },
  ])("fails the whole set as a conflict: $name", async ({ set, id }) => {
    storage = await db.emptyStorage();
    await storage.apply({ records: inserts([rec(5)]) });
    await expect(storage.apply({ records: inserts(set) })).rejects.toMatchObject({
      code: "conflict",
      message: "record exists",
      detail: expect.stringContaining(id) as unknown,
    });
    const all = await storage.listRecords("f1", "person", q(""));
    expect(all.records.map((r) => r.id)).toEqual([rec(5).id]);
    expect(all.total).toBe(1);
  });
});

// --- internal ---

/** Statements sent on the connections `fn` checks out of `pool`. */
async function _countStatements(pool: pg.Pool, fn: () => Promise<unknown>): Promise<number> {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  let n = 0;
  const counting = async () => {
    const client = await connect();
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
      n += 1;
      return query(...a);
    };
    const release = client.release.bind(client);
    client.release = (e?: Error | boolean) => {
      (client as unknown as { query: unknown }).query = query;
      client.release = release;
      return release(e);
    };
    return client;
  };
  (pool as unknown as { connect: unknown }).connect = counting;
  try {
    await fn();
  } finally {
    (pool as unknown as { connect: unknown }).connect = connect;
  }
  return n;
}
