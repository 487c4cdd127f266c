/**
 * @module copy-source
 * The source of `records-service copy`: reads everything a SQLite database holds, in the order a copy writes it: the small tables
 * whole, then records (insertion order), files (by id) and outbox jobs (insertion order) in
 * batches. The file is opened read-only, so a copy never changes its source. A file an
 * older version wrote (migrations pending) is read from a migrated snapshot instead (see
 * `openSqliteCopySource`): the copy gets what this version's tables hold, e.g. member accounts
 * in their flock's namespace and keys with a lifetime, which PostgreSQL has no migration
 * to make from the old rows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiKeyRow, FlockRow, OutboxJob, StoredFile, StoredRecord, UserRow } from "@records-service/core";
import { jobFromRow, OUTBOX_COLUMNS, recordFromRow, type OutboxRow, type RecordRow } from "@records-service/sql";
import { MIGRATIONS_FOLDER, openDatabase, type Db } from "./open.js";
import type { users } from "./schema.js";

/** The source of a copy: the file's rows as the `Storage` methods take them. */
export interface SqliteCopySource {
  flocks(): FlockRow[];
  users(): UserRow[];
  apiKeys(): ApiKeyRow[];
  settings(): { name: string; value: string }[];
  counts(): { records: number; files: number; jobs: number };
  /** Records after position `after` (0: from the start), with the position to go on from. */
  records(after: number, limit: number): { rows: StoredRecord[]; next: number };
  files(after: string, limit: number): StoredFile[];
  jobs(after: number, limit: number): { rows: OutboxJob[]; next: number };
  /** Records per flock, type and state. */
  recordCounts(): { flock: string; type: string; state: string; n: number }[];
  /** The migrations the file lacked, applied to a snapshot the copy reads (none: read the file itself). */
  migrated: string[];
  /** Closes the file (and removes the snapshot). */
  close(): void;
}

/**
 * Opens `path` read-only (it must exist). When the file lacks some of this version's
 * migrations, it is copied (`VACUUM INTO`, a consistent snapshot) into a temporary folder,
 * the snapshot is migrated, and the source reads that; `close()` removes it.
 *
 * @example
 * const source = openSqliteCopySource("./data/records.db");
 * const { rows, next } = source.records(0, 500); source.close();
 */
export function openSqliteCopySource(path: string): SqliteCopySource {
  let db = openDatabase({ path, readonly: true }).$client;
  const migrated = _pendingMigrations(db);
  let snapshotDir: string | undefined;
  if (migrated.length > 0) {
    try {
      snapshotDir = mkdtempSync(join(tmpdir(), "records-copy-source-"));
      const snapshot = join(snapshotDir, "records.db");
      db.prepare("VACUUM INTO ?").run(snapshot);
      db.close();
      openDatabase({ path: snapshot }).$client.close(); // applies the pending migrations
      db = openDatabase({ path: snapshot, readonly: true }).$client;
    } catch (e) {
      if (db.open) db.close();
      if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
      throw e;
    }
  }
  const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  return {
    flocks: () => all<FlockRow>("SELECT identifier, name, created FROM flocks ORDER BY identifier"),
    users: () =>
      all<typeof users.$inferSelect>("SELECT username, password_hash AS passwordHash, flocks, role, created FROM users ORDER BY username").map(
        (u) => ({ ...u, flocks: JSON.parse(u.flocks) as string[], role: u.role as UserRow["role"] }),
      ),
    apiKeys: () =>
      all<ApiKeyRow>("SELECT token_hash AS tokenHash, username, created, expires FROM api_keys ORDER BY token_hash"),
    settings: () => all<{ name: string; value: string }>("SELECT name, value FROM settings ORDER BY name"),
    counts: () => {
      const n = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      return { records: n("records"), files: n("files"), jobs: n("outbox") };
    },
    records(after, limit) {
      // The adapter's own row shape (`RecordRow`), plus the position and the collection's names.
      const rows = all<RecordRow & { rid: number; flock: string; type: string }>(
        `SELECT r.rid, c.flock, c.type, r.id, r.state, r.data, r.display_value AS displayValue, r.created,
           r.last_updated AS lastUpdated, r.version
         FROM records r JOIN collections c ON c.cid = r.cid WHERE r.rid > ? ORDER BY r.rid LIMIT ?`,
        after,
        limit,
      );
      return {
        rows: rows.map((r) => recordFromRow(r, r.flock, r.type)),
        next: rows.length > 0 ? rows[rows.length - 1]!.rid : after,
      };
    },
    files(after, limit) {
      return all<Omit<StoredFile, "bytes"> & { bytes: Buffer }>(
        `SELECT id, flock, record_type AS recordType, record_id AS recordId, field, filename, content_type AS contentType,
           bytes, created FROM files WHERE id > ? ORDER BY id LIMIT ?`,
        after,
        limit,
      ).map((f) => ({ ...f, bytes: new Uint8Array(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength) }));
    },
    jobs(after, limit) {
      // The outbox's own columns and mapping (`@records-service/sql`), as the adapter's claims read them.
      const rows = all<OutboxRow & { seq: number }>(`SELECT seq, ${OUTBOX_COLUMNS} FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit);
      // A claim is the source process's: the copy's workers start unclaimed.
      return { rows: rows.map((r) => ({ ...jobFromRow(r), claimedUntil: null })), next: rows.length > 0 ? rows[rows.length - 1]!.seq : after };
    },
    recordCounts: () =>
      all<{ flock: string; type: string; state: string; n: number }>(
        `SELECT c.flock, c.type, r.state, count(*) AS n FROM records r JOIN collections c ON c.cid = r.cid
         GROUP BY c.flock, c.type, r.state ORDER BY c.flock, c.type, r.state`,
      ),
    migrated,
    close: () => {
      db.close();
      if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
    },
  };
}

// --- internal ---

/** The tags of the migrations `db` lacks, by drizzle's rule (those newer than the last applied). */
function _pendingMigrations(db: Db["$client"]): string[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  const last = table ? (db.prepare("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null }).at : null;
  return journal.entries.filter((e) => last === null || e.when > Number(last)).map((e) => e.tag);
}
