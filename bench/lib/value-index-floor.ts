/**
 * @module bench/lib/value-index-floor
 * Issue 24's floor for a write: the same operation on the same data with every value index
 * dropped. `dropEveryValueIndex` drops, through the registry as an operator would (engine
 * fields too, which the operator surfaces refuse), every field of `flock` that has value
 * entries in the database, and every field the defaults keep for a person and its data
 * event, then runs the removal to its end; afterwards no write of those types keeps a value
 * entry, so what a write still costs is the records, the change log and the engine.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { createPostgresStorage } from "@records-service/postgres";
import { createSqliteStorage } from "@records-service/sqlite";
import type { Storage } from "@records-service/core";
import type { HttpOp } from "./http-targets.js";

/** The operations a floor server takes part in over HTTP: the writes. */
export const FLOOR_OPS: readonly HttpOp[] = ["create person", "update person (PUT)"];

/** The fields the defaults keep for the bench's writes (a person and the data event it records). */
const DEFAULT_KEPT: readonly (readonly [string, string])[] = [
  ["person", "first_name"],
  ["person", "last_name"],
  ["person", "email"],
  ["person", "tags"],
  ["data_event", "fire_at"],
  ["data_event", "context_ref"],
  ["data_event", "expires_at"],
];

/** The (type, field) pairs of `flock` with value entries: the same statement on both dialects. */
const STORED_FIELDS =
  "SELECT DISTINCT c.type, f.name FROM record_values v JOIN fields f ON f.fid = v.fid JOIN collections c ON c.cid = f.cid WHERE c.flock = ";

/** Drops every value index of `flock` in the SQLite `file`; answers how many fields. */
export async function dropEveryValueIndexSqlite(file: string, flock: string): Promise<number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let stored: [string, string][];
  try {
    stored = db.prepare<[string], { type: string; name: string }>(`${STORED_FIELDS}?`).all(flock).map((r) => [r.type, r.name]);
  } finally {
    db.close();
  }
  return _dropAll(createSqliteStorage({ path: file }), flock, stored);
}

/** Drops every value index of `flock` in the PostgreSQL database at `url`; answers how many fields. */
export async function dropEveryValueIndexPostgres(url: string, flock: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let stored: [string, string][];
  try {
    stored = (await client.query<{ type: string; name: string }>(`${STORED_FIELDS}$1`, [flock])).rows.map((r) => [r.type, r.name]);
  } finally {
    await client.end();
  }
  return _dropAll(await createPostgresStorage({ url }, { watchChanges: false }), flock, stored);
}

async function _dropAll(storage: Storage, flock: string, stored: readonly (readonly [string, string])[]): Promise<number> {
  const fields = new Map([...DEFAULT_KEPT, ...stored].map(([type, field]) => [`${type}\0${field}`, [type, field] as const]));
  try {
    for (const [type, field] of fields.values()) await storage.setFieldIndex(flock, type, field, "drop", "operator");
    while ((await storage.stepFieldIndexes(5000)) > 0);
  } finally {
    await storage.close();
  }
  return fields.size;
}
