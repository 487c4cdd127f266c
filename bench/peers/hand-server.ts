/**
 * @module bench/peers/hand-server
 * The hand-written server the HTTP scenarios measure ours against: what a person would
 * write in an afternoon with Hono and the database driver, doing real work on every
 * request. One plain table of persons (`hand_person`: id, flock, last_name, a JSON `data`
 * column, created, last_updated, version) with an index on (flock, last_name), and the
 * API keys' hashes: every request hashes its bearer token and looks it up. Get by id, list
 * with `last_name=` (a page of 25 and the count), create (an id, `data` as sent) and PUT
 * (read, merge, version + 1, write). No events, no value index, no validation beyond
 * "a JSON object". Run as its own process:
 *
 *   node --import tsx/esm bench/peers/hand-server.ts sqlite <file>
 *   node --import tsx/esm bench/peers/hand-server.ts postgres <url>
 *
 * `prepareHandSqlite` / `prepareHandPostgres` build its table from a seeded data set first.
 * Prints `listening on http://127.0.0.1:<port>`.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { Hono, type Context } from "hono";
import pg from "pg";

/** A person row as the hand-written server stores it. */
interface HandRow {
  id: string;
  flock: string;
  data: string;
  created: string;
  last_updated: string;
  version: number;
}

/** The hand-written data access, one implementation per database. */
interface HandStore {
  keyExists(hash: string): Promise<boolean>;
  get(flock: string, id: string): Promise<HandRow | undefined>;
  list(flock: string, lastName: string, limit: number): Promise<{ total: number; rows: HandRow[] }>;
  insert(row: HandRow, lastName: string | null): Promise<void>;
  /** Writes `row` when its stored version is `expected`; false when it is not. */
  update(row: HandRow, lastName: string | null, expected: number): Promise<boolean>;
}

/**
 * Builds `target` (a new SQLite file) from the seeded file `source`: its live persons and
 * its API keys, in the hand-written server's tables, with the engine's pragmas.
 */
export function prepareHandSqlite(source: string, target: string): void {
  const db = new Database(target);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(`${_DDL}
      ATTACH DATABASE '${source.replace(/'/g, "''")}' AS src;
      INSERT INTO hand_person (id, flock, last_name, data, created, last_updated, version)
        SELECT r.id, c.flock, json_extract(r.data, '$.last_name'), r.data, r.created, r.last_updated, r.version
        FROM src.records r JOIN src.collections c ON c.cid = r.cid
        WHERE c.type = 'person' AND r.state = 'updated';
      INSERT INTO hand_key (token_hash) SELECT token_hash FROM src.api_keys;
      DETACH DATABASE src;`);
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** Adds the hand-written server's tables to the PostgreSQL database at `url` (a copy of a seeded one), filled from its records. */
export async function prepareHandPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`${_DDL.replace(/\bTEXT\b/g, "text").replace("data text NOT NULL", "data jsonb NOT NULL")}
      INSERT INTO hand_person (id, flock, last_name, data, created, last_updated, version)
        SELECT r.id, c.flock, r.data::jsonb->>'last_name', r.data::jsonb, r.created, r.last_updated, r.version
        FROM records r JOIN collections c ON c.cid = r.cid
        WHERE c.type = 'person' AND r.state = 'updated';
      INSERT INTO hand_key (token_hash) SELECT token_hash FROM api_keys;
      ANALYZE hand_person;`);
  } finally {
    await client.end();
  }
}

/** The Hono app over `store`. */
function handApp(store: HandStore): Hono {
  const app = new Hono({ strict: false });
  app.use("/api/v1/*", async (c, next) => {
    const m = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "");
    if (!m || !(await store.keyExists(createHash("sha256").update(m[1]!, "utf8").digest("hex")))) return c.json({ error: "unauthorized" }, 401);
    return next();
  });
  app.get("/api/v1/:flock/person/:id", async (c) => {
    const row = await store.get(c.req.param("flock"), c.req.param("id"));
    return row ? c.json({ data: _envelope(row) }) : c.json({ error: "not found" }, 404);
  });
  app.get("/api/v1/:flock/person", async (c) => {
    const lastName = c.req.query("last_name");
    if (lastName === undefined) return c.json({ error: "last_name is required" }, 400);
    const { total, rows } = await store.list(c.req.param("flock"), lastName, 25);
    return c.json({ count: total, results: rows.map(_envelope) });
  });
  app.post("/api/v1/:flock/person", async (c) => {
    const body = await _object(c);
    if (!body) return c.json({ error: "a JSON object is required" }, 400);
    const now = _now();
    const row: HandRow = { id: randomBytes(12).toString("hex"), flock: c.req.param("flock"), data: JSON.stringify(body), created: now, last_updated: now, version: 1 };
    await store.insert(row, _lastName(body));
    return c.json({ data: _envelope(row) }, 201);
  });
  app.put("/api/v1/:flock/person/:id", async (c) => {
    const patch = await _object(c);
    if (!patch) return c.json({ error: "a JSON object is required" }, 400);
    const before = await store.get(c.req.param("flock"), c.req.param("id"));
    if (!before) return c.json({ error: "not found" }, 404);
    const data = { ...(JSON.parse(before.data) as Record<string, unknown>), ...patch };
    const row: HandRow = { ...before, data: JSON.stringify(data), last_updated: _now(), version: before.version + 1 };
    if (!(await store.update(row, _lastName(data), before.version))) return c.json({ error: "version conflict" }, 409);
    return c.json(patch);
  });
  return app;
}

// --- internal ---

const _DDL = `
  CREATE TABLE hand_person (id TEXT PRIMARY KEY, flock TEXT NOT NULL, last_name TEXT, data TEXT NOT NULL,
    created TEXT NOT NULL, last_updated TEXT NOT NULL, version INTEGER NOT NULL);
  CREATE INDEX hand_person_last_name ON hand_person (flock, last_name);
  CREATE TABLE hand_key (token_hash TEXT PRIMARY KEY);`;

function _sqliteStore(file: string): HandStore {
  const db = new Database(file, { fileMustExist: true });
  // The engine's pragmas (packages/sqlite/src/open.ts), so only the work done differs.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("wal_autocheckpoint = 10000");
  db.pragma("temp_store = MEMORY");
  db.pragma("cache_size = -131072");
  const key = db.prepare<[string], { k: number }>("SELECT 1 AS k FROM hand_key WHERE token_hash = ?");
  const get = db.prepare<[string, string], HandRow>("SELECT id, flock, data, created, last_updated, version FROM hand_person WHERE id = ? AND flock = ?");
  const count = db.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM hand_person WHERE flock = ? AND last_name = ?");
  const page = db.prepare<[string, string, number], HandRow>(
    "SELECT id, flock, data, created, last_updated, version FROM hand_person WHERE flock = ? AND last_name = ? ORDER BY rowid LIMIT ?",
  );
  const ins = db.prepare("INSERT INTO hand_person (id, flock, last_name, data, created, last_updated, version) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const upd = db.prepare("UPDATE hand_person SET last_name = ?, data = ?, last_updated = ?, version = ? WHERE id = ? AND version = ?");
  return {
    keyExists: async (hash) => key.get(hash) !== undefined,
    get: async (flock, id) => get.get(id, flock),
    list: async (flock, lastName, limit) => ({ total: count.get(flock, lastName)!.n, rows: page.all(flock, lastName, limit) }),
    insert: async (r, lastName) => void ins.run(r.id, r.flock, lastName, r.data, r.created, r.last_updated, r.version),
    update: async (r, lastName, expected) => upd.run(lastName, r.data, r.last_updated, r.version, r.id, expected).changes === 1,
  };
}

function _postgresStore(url: string): HandStore {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const q = async <T extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) => (await pool.query<T>({ name, text, values })).rows;
  const cols = "id, flock, data::text AS data, created, last_updated, version";
  return {
    keyExists: async (hash) => (await q("key", "SELECT 1 FROM hand_key WHERE token_hash = $1", [hash])).length > 0,
    get: async (flock, id) => (await q<HandRow>("get", `SELECT ${cols} FROM hand_person WHERE id = $1 AND flock = $2`, [id, flock]))[0],
    list: async (flock, lastName, limit) => {
      // Two statements on the pool run on two connections at once, as a person would send them.
      const [n, rows] = await Promise.all([
        q<{ n: string }>("count", "SELECT count(*) AS n FROM hand_person WHERE flock = $1 AND last_name = $2", [flock, lastName]),
        q<HandRow>("page", `SELECT ${cols} FROM hand_person WHERE flock = $1 AND last_name = $2 ORDER BY id LIMIT $3`, [flock, lastName, limit]),
      ]);
      return { total: Number(n[0]!.n), rows };
    },
    insert: async (r, lastName) =>
      void (await q("ins", "INSERT INTO hand_person (id, flock, last_name, data, created, last_updated, version) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)", [
        r.id,
        r.flock,
        lastName,
        r.data,
        r.created,
        r.last_updated,
        r.version,
      ])),
    update: async (r, lastName, expected) =>
      (await pool.query({
        name: "upd",
        text: "UPDATE hand_person SET last_name = $1, data = $2::jsonb, last_updated = $3, version = $4 WHERE id = $5 AND version = $6",
        values: [lastName, r.data, r.last_updated, r.version, r.id, expected],
      })).rowCount === 1,
  };
}

function _envelope(r: HandRow): Record<string, unknown> {
  return { id: r.id, created: r.created, last_updated: r.last_updated, version: r.version, data: JSON.parse(r.data) as unknown };
}

async function _object(c: Context): Promise<Record<string, unknown> | undefined> {
  const body = (await c.req.json().catch(() => undefined)) as unknown;
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

function _lastName(data: Record<string, unknown>): string | null {
  return typeof data.last_name === "string" ? data.last_name : null;
}

function _now(): string {
  return new Date().toISOString().replace("Z", "000");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [kind, where] = process.argv.slice(2);
  if ((kind !== "sqlite" && kind !== "postgres") || !where) {
    console.error("usage: hand-server.ts sqlite <file> | postgres <url>");
    process.exit(2);
  }
  const app = handApp(kind === "sqlite" ? _sqliteStore(where) : _postgresStore(where));
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
    console.log(`listening on http://127.0.0.1:${info.port}`);
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
