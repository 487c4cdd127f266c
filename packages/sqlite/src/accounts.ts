/**
 * @module accounts
 * The small tables: flocks, users, API keys, settings and files, as drizzle prepared
 * queries (synchronous; the Storage wrapper makes them async).
 */
import type { ApiKeyRow, FlockRow, StoredFile, UserRow } from "@records-service/core";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "./open.js";
import { apiKeys, files, flocks, settings, users } from "./schema.js";

/** The non-record tables of one connection. */
export interface AccountStore {
  createFlock(flock: FlockRow): boolean;
  getFlock(identifier: string): FlockRow | undefined;
  listFlocks(): FlockRow[];
  renameFlock(identifier: string, name: string): boolean;
  putUser(user: UserRow): void;
  getUser(username: string): UserRow | undefined;
  putApiKey(key: ApiKeyRow): void;
  getApiKey(tokenHash: string): ApiKeyRow | undefined;
  apiKeysOf(username: string): ApiKeyRow[];
  deleteApiKey(tokenHash: string): boolean;
  deleteApiKeysOf(username: string): number;
  replacePasswordHash(username: string, from: string, to: string): boolean;
  getSetting(name: string): string | undefined;
  initSetting(name: string, value: string): string;
  putSetting(name: string, value: string): void;
  getFile(flock: string, id: string): StoredFile | undefined;
}

/** The account store for one connection. */
export function createAccountStore(db: Db): AccountStore {
  const p = (name: string) => sql.placeholder(name);
  const q = {
    insFlock: db
      .insert(flocks)
      .values({ identifier: p("identifier"), name: p("name"), created: p("created") })
      .onConflictDoNothing()
      .prepare(),
    selFlock: db.select().from(flocks).where(eq(flocks.identifier, p("identifier"))).prepare(),
    renameFlock: db
      .update(flocks)
      .set({ name: sql`${p("name")}` })
      .where(eq(flocks.identifier, p("identifier")))
      .prepare(),
    allFlocks: db.select().from(flocks).orderBy(asc(flocks.identifier)).prepare(),
    putUser: db
      .insert(users)
      .values({
        username: p("username"),
        passwordHash: p("passwordHash"),
        flocks: p("flocks"),
        role: p("role"),
        created: p("created"),
      })
      .onConflictDoUpdate({
        target: users.username,
        set: {
          passwordHash: sql`excluded.password_hash`,
          flocks: sql`excluded.flocks`,
          role: sql`excluded.role`,
          created: sql`excluded.created`,
        },
      })
      .prepare(),
    selUser: db.select().from(users).where(eq(users.username, p("username"))).prepare(),
    putKey: db
      .insert(apiKeys)
      .values({ tokenHash: p("tokenHash"), username: p("username"), created: p("created"), expires: p("expires") })
      .onConflictDoUpdate({
        target: apiKeys.tokenHash,
        set: { username: sql`excluded.username`, created: sql`excluded.created`, expires: sql`excluded.expires` },
      })
      .prepare(),
    selKey: db.select().from(apiKeys).where(eq(apiKeys.tokenHash, p("tokenHash"))).prepare(),
    delKey: db.delete(apiKeys).where(eq(apiKeys.tokenHash, p("tokenHash"))).prepare(),
    delKeysOf: db.delete(apiKeys).where(eq(apiKeys.username, p("username"))).prepare(),
    // api_keys_username_idx: only the user's rows are read.
    selKeysOf: db.select().from(apiKeys).where(eq(apiKeys.username, p("username"))).orderBy(asc(apiKeys.created), asc(apiKeys.tokenHash)).prepare(),
    casHash: db
      .update(users)
      .set({ passwordHash: sql`${p("to")}` })
      .where(and(eq(users.username, p("username")), eq(users.passwordHash, p("from"))))
      .prepare(),
    selSetting: db.select().from(settings).where(eq(settings.name, p("name"))).prepare(),
    insSetting: db.insert(settings).values({ name: p("name"), value: p("value") }).onConflictDoNothing().prepare(),
    putSetting: db
      .insert(settings)
      .values({ name: p("name"), value: p("value") })
      .onConflictDoUpdate({ target: settings.name, set: { value: sql`excluded.value` } })
      .prepare(),
    selFile: db
      .select()
      .from(files)
      .where(and(eq(files.flock, p("flock")), eq(files.id, p("id"))))
      .prepare(),
  };

  return {
    createFlock: (f) => q.insFlock.run({ identifier: f.identifier, name: f.name, created: f.created }).changes > 0,
    getFlock: (identifier) => q.selFlock.get({ identifier }),
    listFlocks: () => q.allFlocks.all(),
    renameFlock: (identifier, name) => q.renameFlock.run({ identifier, name }).changes > 0,
    putUser(u) {
      q.putUser.run({ ...u, flocks: JSON.stringify(u.flocks) });
    },
    getUser(username) {
      const row = q.selUser.get({ username });
      if (!row) return undefined;
      return { ...row, flocks: JSON.parse(row.flocks) as string[], role: row.role as UserRow["role"] };
    },
    putApiKey(k) {
      q.putKey.run({ tokenHash: k.tokenHash, username: k.username, created: k.created, expires: k.expires });
    },
    getApiKey: (tokenHash) => q.selKey.get({ tokenHash }),
    deleteApiKey: (tokenHash) => q.delKey.run({ tokenHash }).changes > 0,
    deleteApiKeysOf: (username) => q.delKeysOf.run({ username }).changes,
    apiKeysOf: (username) => q.selKeysOf.all({ username }),
    replacePasswordHash: (username, from, to) => q.casHash.run({ username, from, to }).changes > 0,
    getSetting: (name) => q.selSetting.get({ name })?.value,
    initSetting(name, value) {
      q.insSetting.run({ name, value });
      return q.selSetting.get({ name })!.value;
    },
    putSetting(name, value) {
      q.putSetting.run({ name, value });
    },
    getFile(flock, id) {
      const row = q.selFile.get({ flock, id });
      if (!row) return undefined;
      return { ...row, bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) };
    },
  };
}
