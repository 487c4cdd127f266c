/**
 * @module copy/sqlite-source
 * Reads everything a SQLite database holds, in the order a copy writes it: the small tables
 * whole, then records (insertion order), files (by id) and outbox jobs (insertion order) in
 * batches. The file is opened read-only, so a copy never changes its source.
 */
import type { ApiKeyRow, FlockRow, OutboxJob, OutboxStatus, StoredFile, StoredRecord, UserRow } from "@records-service/core";
import { openDatabase } from "@records-service/sqlite";

/** The source of a copy. */
export interface SqliteSource {
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
  close(): void;
}

/**
 * Opens `path` read-only (it must exist).
 *
 * @example
 * const source = openSqliteSource("./data/records.db");
 */
export function openSqliteSource(path: string): SqliteSource {
  const db = openDatabase({ path, readonly: true }).$client;
  const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  return {
    flocks: () => all<FlockRow>("SELECT identifier, name, created FROM flocks ORDER BY identifier"),
    users: () =>
      all<{ username: string; passwordHash: string; flocks: string; role: UserRow["role"]; created: string }>(
        "SELECT username, password_hash AS passwordHash, flocks, role, created FROM users ORDER BY username",
      ).map((u) => ({ ...u, flocks: JSON.parse(u.flocks) as string[] })),
    apiKeys: () =>
      all<ApiKeyRow>("SELECT token_hash AS tokenHash, username, created, expires FROM api_keys ORDER BY token_hash"),
    settings: () => all<{ name: string; value: string }>("SELECT name, value FROM settings ORDER BY name"),
    counts: () => {
      const n = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      return { records: n("records"), files: n("files"), jobs: n("outbox") };
    },
    records(after, limit) {
      const rows = all<{
        rid: number;
        flock: string;
        type: string;
        id: string;
        state: StoredRecord["state"];
        data: string;
        displayValue: string;
        created: string;
        lastUpdated: string;
        version: number;
      }>(
        `SELECT r.rid, c.flock, c.type, r.id, r.state, r.data, r.display_value AS displayValue, r.created,
           r.last_updated AS lastUpdated, r.version
         FROM records r JOIN collections c ON c.cid = r.cid WHERE r.rid > ? ORDER BY r.rid LIMIT ?`,
        after,
        limit,
      );
      return {
        rows: rows.map(({ rid: _rid, data, ...r }) => ({ ...r, data: JSON.parse(data) as Record<string, unknown> })),
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
      const rows = all<{
        seq: number;
        id: string;
        flock: string;
        dataEventId: string;
        trigger: string;
        action: string;
        deliveryId: string;
        status: OutboxStatus;
        attempts: number;
        nextAttemptAt: string;
        firstAttemptAt: string | null;
        lastError: string | null;
        lastStatus: number | null;
        body: string | null;
        created: string;
      }>(
        `SELECT seq, id, flock, data_event_id AS dataEventId, "trigger", action, delivery_id AS deliveryId, status, attempts,
           next_attempt_at AS nextAttemptAt, first_attempt_at AS firstAttemptAt, last_error AS lastError,
           last_status AS lastStatus, body, created
         FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?`,
        after,
        limit,
      );
      return { rows: rows.map(({ seq: _seq, ...j }) => j), next: rows.length > 0 ? rows[rows.length - 1]!.seq : after };
    },
    recordCounts: () =>
      all<{ flock: string; type: string; state: string; n: number }>(
        `SELECT c.flock, c.type, r.state, count(*) AS n FROM records r JOIN collections c ON c.cid = r.cid
         GROUP BY c.flock, c.type, r.state ORDER BY c.flock, c.type, r.state`,
      ),
    close: () => db.close(),
  };
}
