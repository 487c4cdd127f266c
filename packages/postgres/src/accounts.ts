/**
 * @module accounts
 * The small tables: flocks, users, API keys, settings and files. Each statement is one
 * named query on the pool (no transaction needed: each is one statement). New kinds of
 * small keyed rows fit the same shape: a statement here and a line in driver.ts (the
 * limit rows, which need a transaction, are in limits.ts).
 */
import type { ApiKeyRow, FlockRow, StoredFile, UserRow } from "@records-service/core";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { exec } from "./exec.js";
import { apiKeys, files, flocks, settings, users } from "./schema.js";
import { decodeText, encodeText } from "./text-codec.js";

/** The non-record tables. */
export interface AccountStore {
  createFlock(flock: FlockRow): Promise<boolean>;
  getFlock(identifier: string): Promise<FlockRow | undefined>;
  listFlocks(): Promise<FlockRow[]>;
  renameFlock(identifier: string, name: string): Promise<boolean>;
  putUser(user: UserRow): Promise<void>;
  getUser(username: string): Promise<UserRow | undefined>;
  putApiKey(key: ApiKeyRow): Promise<void>;
  getApiKey(tokenHash: string): Promise<ApiKeyRow | undefined>;
  deleteApiKey(tokenHash: string): Promise<boolean>;
  deleteApiKeysOf(username: string): Promise<number>;
  apiKeysOf(username: string): Promise<ApiKeyRow[]>;
  replacePasswordHash(username: string, from: string, to: string): Promise<boolean>;
  getSetting(name: string): Promise<string | undefined>;
  initSetting(name: string, value: string): Promise<string>;
  putSetting(name: string, value: string): Promise<void>;
  getFile(flock: string, id: string): Promise<StoredFile | undefined>;
}

/** The account store over `pool`. */
export function createAccountStore(pool: pg.Pool): AccountStore {
  const flockOf = (r: { identifier: string; name: string; created: string }): FlockRow => ({
    identifier: r.identifier,
    name: decodeText(r.name),
    created: r.created,
  });
  const getSetting = async (name: string): Promise<string | undefined> => {
    const { rows } = await exec<{ value: string }>(pool, sql`SELECT value FROM ${settings} WHERE name = ${name}`, "get_setting");
    return rows[0] === undefined ? undefined : decodeText(rows[0].value);
  };

  return {
    async createFlock(f) {
      const res = await exec(
        pool,
        sql`INSERT INTO ${flocks} (identifier, name, created) VALUES (${f.identifier}, ${encodeText(f.name)}, ${f.created}) ON CONFLICT DO NOTHING`,
        "create_flock",
      );
      return res.rowCount > 0;
    },
    async getFlock(identifier) {
      const { rows } = await exec<FlockRow>(
        pool,
        sql`SELECT identifier, name, created FROM ${flocks} WHERE identifier = ${identifier}`,
        "get_flock",
      );
      return rows[0] && flockOf(rows[0]);
    },
    async listFlocks() {
      const { rows } = await exec<FlockRow>(pool, sql`SELECT identifier, name, created FROM ${flocks} ORDER BY identifier`, "list_flocks");
      return rows.map(flockOf);
    },
    async renameFlock(identifier, name) {
      const res = await exec(pool, sql`UPDATE ${flocks} SET name = ${encodeText(name)} WHERE identifier = ${identifier}`, "rename_flock");
      return res.rowCount > 0;
    },
    async putUser(u) {
      await exec(
        pool,
        sql`INSERT INTO ${users} (username, password_hash, flocks, role, created)
            VALUES (${u.username}, ${u.passwordHash}, ${JSON.stringify(u.flocks)}, ${u.role}, ${u.created})
            ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, flocks = excluded.flocks,
              role = excluded.role, created = excluded.created`,
        "put_user",
      );
    },
    async getUser(username) {
      const { rows } = await exec<{ username: string; passwordHash: string; flocks: string; role: string; created: string }>(
        pool,
        sql`SELECT username, password_hash AS "passwordHash", flocks, role, created FROM ${users} WHERE username = ${username}`,
        "get_user",
      );
      const row = rows[0];
      if (!row) return undefined;
      return { ...row, flocks: JSON.parse(row.flocks) as string[], role: row.role as UserRow["role"] };
    },
    async putApiKey(k) {
      await exec(
        pool,
        sql`INSERT INTO ${apiKeys} (token_hash, username, created, expires) VALUES (${k.tokenHash}, ${k.username}, ${k.created}, ${k.expires})
            ON CONFLICT (token_hash) DO UPDATE SET username = excluded.username, created = excluded.created, expires = excluded.expires`,
        "put_api_key",
      );
    },
    async getApiKey(tokenHash) {
      const { rows } = await exec<ApiKeyRow>(
        pool,
        sql`SELECT token_hash AS "tokenHash", username, created, expires FROM ${apiKeys} WHERE token_hash = ${tokenHash}`,
        "get_api_key",
      );
      return rows[0];
    },
    async deleteApiKey(tokenHash) {
      const res = await exec(pool, sql`DELETE FROM ${apiKeys} WHERE token_hash = ${tokenHash}`, "delete_api_key");
      return res.rowCount > 0;
    },
    async deleteApiKeysOf(username) {
      // api_keys_username_idx: a revocation reads only the user's rows.
      const res = await exec(pool, sql`DELETE FROM ${apiKeys} WHERE username = ${username}`, "delete_api_keys_of");
      return res.rowCount;
    },
    async apiKeysOf(username) {
      // api_keys_username_idx: only the user's rows are read.
      const { rows } = await exec<ApiKeyRow>(
        pool,
        sql`SELECT token_hash AS "tokenHash", username, created, expires FROM ${apiKeys} WHERE username = ${username} ORDER BY created, token_hash`,
        "api_keys_of",
      );
      return rows;
    },
    async replacePasswordHash(username, from, to) {
      // Compare and set in one statement: a password changed meanwhile is never undone.
      const res = await exec(
        pool,
        sql`UPDATE ${users} SET password_hash = ${to} WHERE username = ${username} AND password_hash = ${from}`,
        "replace_password_hash",
      );
      return res.rowCount > 0;
    },
    getSetting,
    async initSetting(name, value) {
      await exec(pool, sql`INSERT INTO ${settings} (name, value) VALUES (${name}, ${encodeText(value)}) ON CONFLICT DO NOTHING`, "init_setting");
      return (await getSetting(name))!;
    },
    async putSetting(name, value) {
      await exec(
        pool,
        sql`INSERT INTO ${settings} (name, value) VALUES (${name}, ${encodeText(value)}) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        "put_setting",
      );
    },
    async getFile(flock, id) {
      const { rows } = await exec<{
        id: string;
        flock: string;
        recordType: string;
        recordId: string;
        field: string;
        filename: string;
        contentType: string;
        bytes: Buffer;
        created: string;
      }>(
        pool,
        sql`SELECT id, flock, record_type AS "recordType", record_id AS "recordId", field, filename, content_type AS "contentType", bytes, created
            FROM ${files} WHERE flock = ${flock} AND id = ${id}`,
        "get_file",
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        ...row,
        field: decodeText(row.field),
        filename: decodeText(row.filename),
        contentType: decodeText(row.contentType),
        bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength),
      };
    },
  };
}
