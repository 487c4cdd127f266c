/**
 * Opening migrates under an advisory lock: several processes (here: pools) opening a new
 * database at once apply each migration exactly once and all work; reopening applies none.
 * And what opening answers when the server cannot be reached.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseListQuery, type Storage } from "@records-service/core";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { MIGRATIONS_FOLDER } from "./migrate.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };

describe.skipIf(!inject("pgAvailable"))("migrations", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(); // not migrated yet
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("eight storages opening a new database at once migrate it once, and all of them work", async () => {
    const storages: Storage[] = await Promise.all(Array.from({ length: 8 }, () => createPostgresStorage({ url: db.url }, { poolSize: 2 })));
    try {
      const applied = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
      expect(applied.rows[0]!.n).toBe(journal.entries.length);
      await storages[0]!.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
      for (const s of storages) expect((await s.getFlock("demo"))?.name).toBe("Demo");
    } finally {
      await Promise.all(storages.map((s) => s.close()));
    }
    const again = await createPostgresStorage({ url: db.url });
    await again.close();
    const after = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    expect(after.rows[0]!.n).toBe(journal.entries.length);
  });

  it("a caller's pool stays open after close(); the storage's own pool is ended", async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const borrowed = await createPostgresStorage({ pool });
    await borrowed.close();
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one).toBe(1);
    await pool.end();
  });
});

describe.skipIf(!inject("pgAvailable"))("0004_claims", () => {
  const { db, dir } = _beforeMigrationSuite();

  it("keeps the first data event of a dedupe key doubled before the unique index", async () => {
    const client = await db().pool.connect();
    try {
      await _migrateBefore(client, dir, "0004_claims");
      const ins = await _rawRecords(client, [["demo", "data_event"], ["other", "data_event"]]);
      await ins("demo", "data_event", "a".repeat(24), { name: "expiring_2wk", dedupe_key: "k1" });
      await ins("demo", "data_event", "b".repeat(24), { name: "expiring_2wk", dedupe_key: "k1" });
      await ins("other", "data_event", "c".repeat(24), { name: "expiring_2wk", dedupe_key: "k1" });
    } finally {
      client.release();
    }
    const storage = await createPostgresStorage({ url: db().url });
    try {
      const keys = await storage.getRecords("demo", ["a", "b"].map((c) => ({ type: "data_event", id: c.repeat(24) })));
      expect(keys.map((r) => [r.id[0], r.data.dedupe_key, r.data.name])).toEqual([
        ["a", "k1", "expiring_2wk"],
        ["b", undefined, "expiring_2wk"],
      ]);
      expect((await storage.getRecord("other", "data_event", "c".repeat(24)))?.data.dedupe_key).toBe("k1");
      await expect(storage.apply({ records: [{ kind: "insert", record: { ...keys[0]!, id: "e".repeat(24) } }] })).rejects.toMatchObject({
        code: "conflict",
      });
    } finally {
      await storage.close();
    }
  });
});

describe.skipIf(!inject("pgAvailable"))("0012_dedupe_key_column", () => {
  const { db, dir } = _beforeMigrationSuite();

  it("keys each data event by its text dedupe_key, leaves another type's field and a key that is not text as data, and stores data with a NUL or a lone surrogate beside a key", async () => {
    const client = await db().pool.connect();
    try {
      await _migrateBefore(client, dir, "0012_dedupe_key_column");
      const ins = await _rawRecords(client, [["demo", "data_event"], ["demo", "journal"]]);
      await ins("demo", "data_event", "a".repeat(24), { name: "expiring_2wk", dedupe_key: 'k\u00e9 "1"\t' });
      await ins("demo", "data_event", "b".repeat(24), { name: "expiring_2wk", dedupe_key: 7 });
      await ins("demo", "data_event", "c".repeat(24), { name: "login" });
      await ins("demo", "journal", "d".repeat(24), { dedupe_key: 'k\u00e9 "1"\t' });
    } finally {
      client.release();
    }
    const storage = await createPostgresStorage({ url: db().url });
    try {
      const { rows } = await db().pool.query<{ id: string; dedupe_key: string | null }>("SELECT id, dedupe_key FROM records ORDER BY rid");
      expect(rows.map((r) => [r.id[0], r.dedupe_key])).toEqual([
        ["a", JSON.stringify('k\u00e9 "1"\t')],
        ["b", null],
        ["c", null],
        ["d", null],
      ]);
      // The key still holds (the same text, as this version writes it); another journal with it is fine.
      const event = (await storage.getRecord("demo", "data_event", "a".repeat(24)))!;
      await expect(storage.apply({ records: [{ kind: "insert", record: { ...event, id: "e".repeat(24) } }] })).rejects.toMatchObject({
        code: "conflict",
        message: "event exists",
      });
      const journal = (await storage.getRecord("demo", "journal", "d".repeat(24)))!;
      await storage.apply({ records: [{ kind: "insert", record: { ...journal, id: "f".repeat(24), data: { ...journal.data, note: "\u0000\ud800" } } }] });
      expect((await storage.getRecord("demo", "journal", "f".repeat(24)))?.data).toEqual({ dedupe_key: 'k\u00e9 "1"\t', note: "\u0000\ud800" });
    } finally {
      await storage.close();
    }
  });
});

describe.skipIf(!inject("pgAvailable"))("0014_records_cid_deleted", () => {
  const { db, dir } = _beforeMigrationSuite();

  it("keeps only the deleted records in an index by state, and the lists of each state answer as before", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => (i + 1).toString(16).padStart(24, "0"));
    const client = await db().pool.connect();
    try {
      await _migrateBefore(client, dir, "0014_records_cid_deleted");
      const ins = await _rawRecords(client, [["demo", "person"]]);
      for (const [i, id] of ids.entries()) await ins("demo", "person", id, { last_name: `Name${i % 3}` });
      await client.query("UPDATE records SET state = 'deleted' WHERE rid % 4 = 0");
      // The kept counts `apply` would have kept (lists read their totals there).
      await client.query("INSERT INTO collection_counts (cid, state, n) SELECT cid, state, count(*) FROM records GROUP BY cid, state");
    } finally {
      client.release();
    }
    const storage = await createPostgresStorage({ url: db().url });
    try {
      const { rows } = await db().pool.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'records' ORDER BY indexname");
      expect(rows.map((r) => r.indexname)).toContain("records_cid_deleted_idx");
      expect(rows.map((r) => r.indexname)).not.toContain("records_cid_state_idx");
      const { rows: deleted } = await db().pool.query<{ id: string }>("SELECT id FROM records WHERE state = 'deleted' ORDER BY rid");
      expect(deleted).toHaveLength(10);
      const listed = async (qs: string) => {
        const page = await storage.listRecords("demo", "person", parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date() }));
        return { total: page.total, ids: page.records.map((r) => r.id) };
      };
      const live = ids.filter((id) => !deleted.some((d) => d.id === id));
      expect(await listed("page_size=50")).toEqual({ total: 30, ids: live });
      expect(await listed("include_deleted=Y&state=deleted&page_size=50")).toEqual({ total: 10, ids: deleted.map((d) => d.id) });
      expect(await listed("include_deleted=Y&page_size=50")).toEqual({ total: 40, ids });
    } finally {
      await storage.close();
    }
  });
});

describe.skipIf(!inject("pgAvailable"))("0015_changes_record_idx", () => {
  const { db, dir } = _beforeMigrationSuite();

  it("keys a record's changes by (flock, record id, id), and its history reads as before", async () => {
    const id = "a".repeat(24);
    const client = await db().pool.connect();
    try {
      await _migrateBefore(client, dir, "0015_changes_record_idx");
      const ins = "INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields) VALUES ('demo', $1, $2, $3, $4, $5, '2026-01-01T00:00:00.000000', '[]')";
      await client.query(ins, [1, "thing", id, "updated", 1]);
      await client.query(ins, [2, "other", "b".repeat(24), "updated", 1]);
      await client.query(ins, [3, "thing", id, "deleted", 2]);
      await client.query("INSERT INTO change_heads (flock, last_id) VALUES ('demo', 3)");
    } finally {
      client.release();
    }
    const storage = await createPostgresStorage({ url: db().url });
    try {
      const { rows } = await db().pool.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'changes_record_idx'");
      expect(rows[0]?.indexdef).toContain("(flock, record_id, id)");
      const history = await storage.readChangeHistory("demo", { type: "thing", recordId: id, skip: 0, limit: 10 });
      expect(history.total).toBe(2);
      expect(history.changes.map((c) => [c.version, c.state, c.previousState])).toEqual([
        [2, "deleted", "updated"],
        [1, "updated", null],
      ]);
      expect(history.oldest?.version).toBe(1);
      expect((await storage.readChangeHistory("demo", { type: "other", recordId: id, skip: 0, limit: 10 })).total).toBe(0);
    } finally {
      await storage.close();
    }
  });
});

describe.skipIf(!inject("pgAvailable"))("0009_folded_when_different", () => {
  const { db, dir } = _beforeMigrationSuite();

  it("keeps a folded form only where it differs (long values too), and the case-insensitive filters still find every value", async () => {
    const long = "x".repeat(1100);
    const names = ["Lovelace", "lovelace", "straße", "İnce", long, `${long}Y`];
    const client = await db().pool.connect();
    try {
      await _migrateBefore(client, dir, "0009_folded_when_different");
      const cid = (await client.query<{ cid: number }>("INSERT INTO collections (flock, type) VALUES ('demo', 'person') RETURNING cid")).rows[0]!.cid;
      const fid = (await client.query<{ fid: number }>("INSERT INTO fields (cid, name) VALUES ($1, 'last_name') RETURNING fid", [cid])).rows[0]!.fid;
      const cols = (t: string) => {
        const b = Buffer.from(t, "utf8");
        return b.length > 1024 ? [b.subarray(0, 1024), b] : [b, null];
      };
      for (const [i, n] of names.entries()) {
        const rid = (
          await client.query<{ rid: number }>(
            "INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version) VALUES ($1, $2, 'updated', $3, '', 'x', 'x', 1) RETURNING rid",
            [cid, String(i + 1).repeat(24), JSON.stringify({ last_name: n })],
          )
        ).rows[0]!.rid;
        await client.query("INSERT INTO record_values (rid, fid, kind, text, text_long, folded, folded_long) VALUES ($1, $2, 0, $3, $4, $5, $6)", [
          rid,
          fid,
          ...cols(n),
          ...cols(n.toLowerCase()),
        ]);
      }
    } finally {
      client.release();
    }
    const storage = await createPostgresStorage({ url: db().url });
    try {
      const rows = await db().pool.query<{ folded: Buffer | null; long: boolean }>(
        "SELECT folded, folded_long IS NOT NULL AS long FROM record_values ORDER BY rid",
      );
      expect(rows.rows.map((r) => [r.folded?.toString("utf8").slice(0, 12) ?? null, r.long])).toEqual([
        ["lovelace", false],
        [null, false],
        [null, false],
        ["i\u0307nce", false],
        [null, false],
        ["xxxxxxxxxxxx", true],
      ]);
      const ids = async (op: "startswithi" | "near", text: string) => {
        const filters = [{ field: "last_name", meta: false, op, values: [{ text }] }];
        const page = await storage.listRecords("demo", "person", { filters, mode: "AND", states: ["updated"], page: 1, pageSize: 25 });
        return page.records.map((r) => String(r.data.last_name).slice(0, 10));
      };
      expect(await ids("startswithi", "LOVE")).toEqual(["Lovelace", "lovelace"]);
      expect(await ids("near", "STRAß")).toEqual(["straße"]);
      expect(await ids("startswithi", "i\u0307n")).toEqual(["İnce"]);
      expect(await ids("near", "xY")).toEqual(["xxxxxxxxxx"]);
      expect(await ids("startswithi", `${long}y`)).toEqual(["xxxxxxxxxx"]);
      expect(await ids("startswithi", long)).toHaveLength(2);
    } finally {
      await storage.close();
    }
  });
});

describe("an unreachable server", () => {
  it("rejects opening with RecordsError unavailable, naming host, port and the driver's reason", async () => {
    const open = createPostgresStorage({ url: "postgres://nobody:secret@127.0.0.1:9/records" }, { connectTimeoutMs: 2000 });
    await expect(open).rejects.toMatchObject({
      code: "unavailable",
      message: "database unavailable",
      where: "127.0.0.1:9/records",
      reason: expect.stringContaining("ECONNREFUSED"),
    });
  });
});

/** Migrates `client`'s database up to (not including) the migration `tag`, from a copy of the migrations with a shorter journal. */
/**
 * A fresh, unmigrated database and a scratch folder for one describe block (dropped and
 * removed after it): what the tests of one migration start from.
 */
function _beforeMigrationSuite(): { db: () => TestDatabase; dir: string } {
  let db: TestDatabase | undefined;
  const dir = mkdtempSync(join(tmpdir(), "records-pg-migrations-"));
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db: () => db!, dir };
}

async function _migrateBefore(client: pg.PoolClient, dir: string, tag: string): Promise<void> {
  const folder = join(dir, `migrations-${tag}`);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const full = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const at = full.entries.findIndex((e) => e.tag === tag);
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ ...full, entries: full.entries.slice(0, at) }));
  await migrate(drizzle(client), { migrationsFolder: folder });
}

/** Makes the collections `[flock, type]` and answers an insert of a record row into one, as an older version wrote it (no column newer than 0004). */
async function _rawRecords(client: pg.PoolClient, collections: readonly [string, string][]): Promise<(flock: string, type: string, id: string, data: unknown) => Promise<unknown>> {
  for (const [flock, type] of collections) await client.query("INSERT INTO collections (flock, type) VALUES ($1, $2)", [flock, type]);
  return async (flock, type, id, data) => {
    const { cid } = (await client.query<{ cid: number }>("SELECT cid FROM collections WHERE flock = $1 AND type = $2", [flock, type])).rows[0]!;
    return client.query(
      "INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version) VALUES ($1, $2, 'updated', $3, '', 'x', 'x', 1)",
      [cid, id, JSON.stringify(data)],
    );
  };
}
