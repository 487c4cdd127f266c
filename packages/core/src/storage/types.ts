/**
 * @module storage/types
 * The one interface between the pure engine and a database. Operations read through it,
 * decide in pure code, then hand a `ChangeSet` to `apply`, which commits it atomically
 * with an optimistic version check. Every method is async so that an asynchronous adapter
 * (PostgreSQL) fits the same shape as the synchronous better-sqlite3 one.
 */
import type { Attribution } from "../changes/attribution.js";
import type { ListPage, ListQuery, RecordState } from "../query/types.js";

/** A tenant. */
export interface FlockRow {
  identifier: string;
  name: string;
  /** Timestamp (spec format). */
  created: string;
}

/** A login. Passwords are stored only as a self-describing hash (the server hashes). */
export interface UserRow {
  username: string;
  passwordHash: string;
  /** Flock identifiers this user may access; `"*"` means every flock. */
  flocks: string[];
  role: "core" | "self-service";
  created: string;
}

/** An API key or self-service session token, stored only as a hash of the token. */
export interface ApiKeyRow {
  /** Hex SHA-256 of the token: the token has 256 bits of entropy, so no salt is needed. */
  tokenHash: string;
  username: string;
  created: string;
  /** Timestamp after which the token no longer authenticates; null = never. */
  expires: string | null;
}

/**
 * A small keyed state row with an expiry (`updateLimit`): login failures and lockouts now,
 * throttle counters later. State every process on the database must share.
 */
export interface LimitRow {
  /** Opaque text the caller encodes (usually JSON); adapters store it as given. */
  value: string;
  /** Epoch milliseconds at and after which the row counts as absent and may be purged. */
  expiresAt: number;
}

/** A limit row with its key (`listLimits`). */
export interface LimitEntry extends LimitRow {
  key: string;
}

/**
 * What `updateLimit`'s function returns: the new row, `null` to delete the row, or
 * `undefined` to leave it as it is (a read).
 */
export type LimitChange = LimitRow | null | undefined;

/** One record as stored. `data` holds the resource's schema fields. */
export interface StoredRecord {
  id: string;
  flock: string;
  type: string;
  state: RecordState;
  data: Record<string, unknown>;
  /** Computed by the engine on every write (see schema/display). */
  displayValue: string;
  created: string;
  lastUpdated: string;
  /** Starts at 1; every update increments it; `apply` checks it. */
  version: number;
}

/** A file attached to a record (uploaded through multipart). */
export interface StoredFile {
  /** 24-hex id, used in the file URL. */
  id: string;
  flock: string;
  recordType: string;
  recordId: string;
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  created: string;
}

/** Summary row of `GET /api/v1/{flock}/`. */
export interface TypeSummary {
  name: string;
  /** Records not deleted. */
  count: number;
  /** Latest `lastUpdated` of any record of the type (deleted ones included). */
  lastModified: string;
}

/** A record write inside a change set. */
export type RecordWrite =
  | { kind: "insert"; record: StoredRecord }
  /**
   * Replaces the stored record whose version is `expectedVersion`; `record.version` is the
   * new one. `before` (the record as read) lets the commit step see what changed; adapters ignore it.
   */
  | { kind: "update"; record: StoredRecord; expectedVersion: number; before?: StoredRecord };

/**
 * Everything one operation changes, applied in one transaction: all or nothing.
 * Later capabilities (events, outbox, tasks) add their own optional members.
 */
export interface ChangeSet {
  records?: RecordWrite[];
  files?: StoredFile[];
  /** Deletes every file attached to these records (obfuscation erases uploads). */
  removeFilesOf?: FileOwner[];
  /** Actions to run, queued with the events that caused them (ids must be new). */
  outbox?: OutboxJob[];
  /**
   * Who made these writes: adapters store it on every change row the set logs. Absent: the
   * rows' `actor` and `application` are null (not known).
   */
  attribution?: Attribution;
}

/**
 * Where an outbox job stands: waiting (first try or a retry), delivered, given up (the
 * receiver never accepted within the retry window), or held (its trigger is missing or
 * inactive in the configuration: kept, not attempted, until `resumeHeldJobs` for it).
 */
export type OutboxStatus = "pending" | "done" | "dead" | "held";

/**
 * One action to run for one data event and one trigger: the durable outbox entry. It is
 * written in the same transaction as its data event and kept after it finished, so
 * operators can see every delivery's attempts and last error.
 */
export interface OutboxJob {
  /** 24-hex id. */
  id: string;
  flock: string;
  /** The data_event record the action runs for. */
  dataEventId: string;
  /** The trigger name (`contact_created`). */
  trigger: string;
  /** The action name (`send-json-webhook`). */
  action: string;
  /** Sent to receivers (`X-Records-Delivery`, `webhook-id`); the same on every attempt. */
  deliveryId: string;
  status: OutboxStatus;
  /** Attempts made so far. */
  attempts: number;
  /** Timestamp (spec format) at or after which the job is due; meaningful while pending. */
  nextAttemptAt: string;
  /** Timestamp of the first attempt; null before it. The retry window counts from it. */
  firstAttemptAt: string | null;
  lastError: string | null;
  /** HTTP status of the last attempt, when it got an answer. */
  lastStatus: number | null;
  /**
   * The request body of the first attempt (webhooks), kept so that every retry sends the
   * same bytes; null (or absent) before it.
   */
  body?: string | null;
  created: string;
  /**
   * Timestamp at which the current claim (`claimDueJobs`) lapses; null while unclaimed.
   * Adapters return it; a job given to `apply` leaves it out (a new job is unclaimed).
   */
  claimedUntil?: string | null;
}

/**
 * A worker's hold on the jobs one `claimDueJobs` call returns: a claimed job is not
 * returned again (to this or any other process) until `until` has passed, and only the
 * holder of `token` can record its outcome.
 */
export interface JobClaim {
  /** Unique per claim (random, at least 16 characters): what `finishJob` and `renewJobClaims` name. */
  token: string;
  /** Timestamp (spec format) at which the claim lapses unless renewed. */
  until: string;
}

/** What `finishJob` records about an attempt. */
export interface OutboxJobUpdate {
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  firstAttemptAt: string | null;
  lastError: string | null;
  lastStatus?: number | null;
  /** Sets the kept request body; left as it is when undefined. */
  body?: string | null;
  /**
   * Keeps the claim after this write (a write in the middle of an attempt, such as the
   * kept body); by default `finishJob` ends the claim.
   */
  keepClaim?: boolean;
}

/** Which jobs `listJobs` returns (newest first). */
export interface OutboxJobFilter {
  flock?: string;
  status?: OutboxStatus;
  /** At most this many; default 100. */
  limit?: number;
}

/** The outbox at a glance, for metrics: one read of the whole database. */
export interface OutboxStats {
  /** Jobs by status, `done` left out (it only grows); a status without jobs may be absent. */
  byStatus: Partial<Record<OutboxStatus, number>>;
  /** `nextAttemptAt` of the earliest pending job due at or before `now`; null when none is due. */
  oldestDueAt: string | null;
}

/** The state of a connection pool (adapters that keep one). */
export interface PoolStats {
  /** Connections open, idle or not. */
  total: number;
  /** Open connections no query is using. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** What `scanRecords` matches: a list query without its page. */
export type ScanQuery = Pick<ListQuery, "filters" | "mode" | "states">;

/** One step of `scanRecords`. */
export interface ScanPage {
  records: StoredRecord[];
  /** Where the next step starts; `null` when the walk is complete. */
  cursor: string | null;
}

/** One match of `listFieldValues`: its id and the stored values of the fields asked for. */
export interface FieldValuesRow {
  id: string;
  /** The value of each field asked for, in the order asked, as stored; undefined when the record has no such field. */
  values: unknown[];
}

/** The record a file belongs to. */
export interface FileOwner {
  flock: string;
  type: string;
  id: string;
}

/** What `getDisplayValues` answers for each record found. */
export interface DisplayValueRow {
  type: string;
  id: string;
  displayValue: string;
}

/**
 * One committed record change, as the change feed serves it. Adapters write one per record
 * write of a change set, in the same transaction (see `changeOf`).
 */
export interface ChangeRow {
  /**
   * Per flock: 1, 2, 3, ... in commit order, with no gap and no repeat, whatever the number
   * of processes (adapters assign ids under a per-flock lock held until commit).
   */
  id: number;
  flock: string;
  type: string;
  recordId: string;
  state: RecordState;
  version: number;
  /** The record's `lastUpdated` as written (engine clock). */
  changedAt: string;
  /** Data fields that changed (every field of a new record; none for a state change alone). */
  fields: string[];
  /** Who asked for the write (see `Attribution.actor`); null: the service itself, or not known. */
  actor: string | null;
  /** Through which application (see `Attribution.application`); null: unattributed, or not known. */
  application: string | null;
}

/** What `readChangeHistory` selects. */
export interface ChangeHistoryQuery {
  /** Only changes of records of this type. */
  type?: string;
  /** Only changes of this record (give `type` with it). */
  recordId?: string;
  /** Only changes whose `changedAt` is at or after this timestamp. */
  from?: string;
  /** Only changes whose `changedAt` is before this timestamp. */
  to?: string;
  /** Matching changes passed over, newest first, before the page starts. */
  skip: number;
  /** At most this many changes (0: only the total and, with `recordId`, the oldest). */
  limit: number;
}

/** One change of a history page. */
export interface HistoryChange extends ChangeRow {
  /**
   * The state of the same record's previous kept change (so a reader can tell a restore
   * from an update); null when none is kept: the record's first logged write, or the
   * earlier ones were purged.
   */
  previousState: RecordState | null;
}

/** What `readChangeHistory` answers. */
export interface ChangeHistoryPage {
  /** The page, newest first (id descending). */
  changes: HistoryChange[];
  /** How many kept changes match, `skip` and `limit` aside. */
  total: number;
  /**
   * With `recordId`: the record's oldest kept change, whatever the time filters (undefined
   * when none is kept), so a caller can tell whether the record's creation is still kept.
   */
  oldest?: ChangeRow;
}

/** What `readChanges` answers. */
export interface ChangePage {
  /** Up to `limit` changes after the given id, in id order. */
  changes: ChangeRow[];
  /** The last id assigned in the flock (0: none yet). */
  head: number;
  /** Changes with ids at or below this were purged (0: none). */
  purgedThrough: number;
}

/** A record reference: the flock is implied by the caller. */
export interface RecordKey {
  type: string;
  id: string;
}

/**
 * The database, as the engine sees it.
 * Adapters: `createMemoryStorage()` (the reference, in core) and `createSqliteStorage()`.
 * Every adapter must pass `runStorageTests` from `@records-service/core/testing`.
 */
export interface Storage {
  // --- flocks ---
  /** Creates the flock; returns false (and changes nothing) if the identifier exists. */
  createFlock(flock: FlockRow): Promise<boolean>;
  getFlock(identifier: string): Promise<FlockRow | undefined>;
  /** All flocks, ordered by identifier. */
  listFlocks(): Promise<FlockRow[]>;
  /** Sets the flock's display name (config reload); returns false if there is no such flock. */
  renameFlock(identifier: string, name: string): Promise<boolean>;

  // --- accounts ---
  /** Creates or replaces the user with this username. */
  putUser(user: UserRow): Promise<void>;
  getUser(username: string): Promise<UserRow | undefined>;
  putApiKey(key: ApiKeyRow): Promise<void>;
  getApiKey(tokenHash: string): Promise<ApiKeyRow | undefined>;
  /** Revokes a token; returns false if there was none. */
  deleteApiKey(tokenHash: string): Promise<boolean>;
  /**
   * Revokes every token of `username`, expired ones included (a password change, `user
   * revoke`); returns how many rows were deleted. Other users' tokens are untouched.
   */
  deleteApiKeysOf(username: string): Promise<number>;
  /**
   * Every token row of `username` (expired ones included, as stored until revoked), oldest
   * first: a member account's sessions (`user/?email=` shows the latest open one's expiry).
   */
  apiKeysOf(username: string): Promise<ApiKeyRow[]>;
  /**
   * Sets the user's `passwordHash` to `to` only while it is still `from` (compare and set, in
   * one statement); returns whether it did. A rehash at login uses it, so it can never undo a
   * password change committed meanwhile by another request or process. No such user: false.
   */
  replacePasswordHash(username: string, from: string, to: string): Promise<boolean>;

  // --- limits (small state rows shared by every process: login guard, later throttling) ---
  /**
   * Atomically reads and rewrites the row `key`. `fn` gets its current value (undefined when
   * there is none or its `expiresAt` is at or before `now`) and returns the change (see
   * `LimitChange`). `fn` must be pure and synchronous: the adapter calls it exactly once,
   * inside one transaction that holds the row against every other caller on the database
   * (SQLite: an immediate transaction; PostgreSQL: insert the key if missing with an expired
   * placeholder, then `SELECT ... FOR UPDATE`), so concurrent updates of one key from any
   * number of processes apply one after the other. If the transaction fails, the call
   * rejects and nothing changed. Resolves with the value stored afterwards (undefined: none).
   * Keys are printable text of at most 200 characters. Expired rows are purged by expiry
   * time as the adapter goes (bounded work per call), never by count: state cannot be
   * evicted by filling the table.
   */
  updateLimit(key: string, now: number, fn: (current: string | undefined) => LimitChange): Promise<string | undefined>;
  /**
   * The live limit rows (`expiresAt` after `now`) whose key starts with `prefix`, ordered by
   * key, at most `limit` (default 100): what operators see of shared state such as the
   * workers' leases (`listLeases`). Optional.
   */
  listLimits?(prefix: string, now: number, limit?: number): Promise<LimitEntry[]>;

  // --- settings (small named values, e.g. the generated signing secret) ---
  getSetting(name: string): Promise<string | undefined>;
  /** Stores `value` unless a value exists; returns the value now stored (first writer wins). */
  initSetting(name: string, value: string): Promise<string>;
  /** Stores `value`, replacing any value (e.g. the scheduler's last run per flock). */
  putSetting(name: string, value: string): Promise<void>;

  // --- records ---
  /** One record in any state, or undefined. */
  getRecord(flock: string, type: string, id: string): Promise<StoredRecord | undefined>;
  /** Several records of one flock by key, in any state; missing ones are left out. */
  getRecords(flock: string, keys: RecordKey[]): Promise<StoredRecord[]>;
  /**
   * The display values of several records of one flock, as `getRecords` would find them,
   * without reading their data: what the single-record answer needs to expand references.
   * Optional; without it the engine reads the records with `getRecords`.
   */
  getDisplayValues?(flock: string, keys: RecordKey[]): Promise<DisplayValueRow[]>;
  /**
   * The page of records of `type` in `flock` matching `query`, ordered by creation
   * (insertion order, ties by id), and the total number of matches. Filtering, counting
   * and paging happen in the database.
   */
  listRecords(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>>;
  /**
   * Records in `flock` (any type, any state) with a data field, or a list entry's value
   * part, equal to `uri`: the records that reference it. With `maxDataLength`, reading stops
   * at the first record past it (counted as for `ListQuery.maxDataLength`) with the same
   * 400 `listAnswerTooLarge`, so hundreds of large records are never read in one go.
   */
  listReferencing(flock: string, uri: string, limit: number, maxDataLength?: number): Promise<StoredRecord[]>;
  /**
   * Walks the records of `type` in `flock` matching `query` (its filters, mode and states;
   * paging is ignored) in insertion order: up to `limit` records after the position
   * `after` (`null`: from the start), and the `cursor` to pass as `after` for the next
   * step, `null` once nothing follows. The cursor is opaque and stays valid while records
   * change, so a long task visits each record at most once even when its own writes
   * change which records match (bulk tasks store it with their progress). With
   * `maxDataLength`, a step also ends before the record that would take its records' data
   * past it (counted as for `ListQuery.maxDataLength`; the first record is always taken),
   * so one step of a task never reads hundreds of large records at once.
   */
  scanRecords(flock: string, type: string, query: ScanQuery, after: string | null, limit: number, maxDataLength?: number): Promise<ScanPage>;
  /**
   * The records of `type` in `flock` matching `query` (filters, mode and states, as for
   * `listRecords`), in insertion order, at most `limit`, each as its id and the stored
   * values of the data fields `fields` (names of `FIELD_NAME_RE`; undefined where the
   * record has no such field), without reading or returning the rest of the record: a list
   * that must order or count many records by a few fields reads only those fields.
   * Adapters pick the values out of the stored data in the database.
   */
  listFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], limit: number): Promise<FieldValuesRow[]>;
  /** One row per resource type that has records in the flock, ordered by name. */
  summarizeTypes(flock: string): Promise<TypeSummary[]>;
  /**
   * Search: the live records of `types` (of `SEARCH_TYPES`) in `flock` whose search
   * document (`searchDocument`) has each of `terms` (`searchTerms`: folded words) as one of
   * its words, or with `prefix` as the start of one of its words; in insertion order, at
   * most `limit` (the engine ranks them). Answered from an index kept in the same
   * transaction as every write (SQLite FTS5, PostgreSQL full text), never by reading the
   * records. Optional: without it the engine walks the records (bounded; aggregates/scan-each).
   */
  searchRecords?(flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): Promise<StoredRecord[]>;
  /**
   * Applies the change set atomically. Throws `RecordsError("conflict")` and applies
   * nothing if an update's `expectedVersion` is not the stored version, or an insert's id
   * exists.
   */
  apply(changes: ChangeSet): Promise<void>;
  /**
   * Removes records of `type` in `flock` for good, in one transaction: with their files,
   * their index entries and the outbox jobs of those that are data events. Used to purge
   * expired data events; deletion through the API only marks a record deleted. Ids that
   * are not there are ignored. Returns how many records were removed.
   */
  deleteRecords(flock: string, type: string, ids: readonly string[]): Promise<number>;

  // --- outbox (actions to run: webhooks, email) ---
  /**
   * Claims up to `limit` pending jobs whose `nextAttemptAt` is at or before `now` and that
   * no live claim holds (none, or its `claimedUntil` is at or before `now`), the earliest
   * due first (ties by id), and returns them with `claimedUntil` set to `claim.until`.
   * Atomic against every other caller on the database (SQLite: a conditional update in an
   * immediate transaction; PostgreSQL: `FOR UPDATE SKIP LOCKED`): two processes never get
   * the same job while a claim lives. A claim whose holder died lapses at `until`, and the
   * job is then claimed again (with its same delivery id).
   */
  claimDueJobs(now: string, limit: number, claim: JobClaim): Promise<OutboxJob[]>;
  /**
   * Moves the lapse time of every job still held under one of `tokens` to `until` (a long
   * attempt keeps its claim); returns how many jobs it renewed.
   */
  renewJobClaims(tokens: readonly string[], until: string): Promise<number>;
  /**
   * Records an attempt's outcome on job `id`, held under the claim `token`, and applies
   * `changes` (the data event's new tag, a journal record) in the same transaction; the
   * claim ends unless `update.keepClaim`. Resolves false, applying nothing, when the job
   * is no longer held under `token` (its claim lapsed and another worker claimed it: that
   * worker's outcome is the one recorded). Throws `RecordsError("not_found")` for an
   * unknown job and `RecordsError("conflict")` when `changes` conflict; either way nothing
   * is applied.
   */
  finishJob(id: string, token: string, update: OutboxJobUpdate, changes?: ChangeSet): Promise<boolean>;
  /** Jobs for operators, newest first. */
  listJobs(filter: OutboxJobFilter): Promise<OutboxJob[]>;
  /**
   * How many jobs there are of each status other than `done`, and when the earliest pending
   * job due at `now` fell due: what metrics report (read once per scrape, not per request).
   */
  outboxStats(now: string): Promise<OutboxStats>;
  /**
   * Held jobs of `flock` for `trigger` and `action` (their trigger is configured and active
   * again) become pending and due at `now`, unclaimed, with `firstAttemptAt` cleared so the
   * retry window starts afresh (time spent held is not the receiver's); attempts and last
   * error are kept. One statement, so any number of processes may call it at once; returns
   * how many jobs it resumed.
   */
  resumeHeldJobs(flock: string, trigger: string, action: string, now: string): Promise<number>;
  /**
   * An operator's "retry now": job `id` of `flock`, pending, held or dead, becomes pending and due
   * at `now` (its attempts and last error kept). Resolves the job as it now is; "claimed"
   * when a live claim holds it (an attempt is running: nothing changes); undefined when
   * the flock has no such job or it was delivered (done).
   */
  retryJob(flock: string, id: string, now: string): Promise<OutboxJob | "claimed" | undefined>;

  // --- change feed ---
  /**
   * The flock's changes with id above `after`, up to `limit`, in id order; with `types`,
   * only changes of those resource types (ids then skip the others), each type read by the
   * index (flock, type, id), so a page costs at most `limit` entries per type however many
   * changes of other types lie between. Also the flock's head and purge mark, read in the
   * same snapshot, so a caller can tell "nothing yet" from "purged", and a page shorter
   * than `limit` means nothing matching lies between `after` and the head.
   */
  readChanges(flock: string, after: number, limit: number, types?: readonly string[]): Promise<ChangePage>;
  /**
   * The head (last change id; 0: none yet) of each of `flocks`, read in one query (a flock
   * with no change, or none at all, is absent). The change feed's per-process watcher
   * reads it when the database may have changed, to wake only the feeds of flocks whose
   * head moved.
   */
  readChangeHeads(flocks: readonly string[]): Promise<Map<string, number>>;
  /**
   * Removes, per flock, the oldest changes up to the last one whose `changedAt` is before
   * `before` (so the kept ids stay contiguous) and moves the flock's purge mark to it.
   * With `limit`, removes at most that many in all (the oldest first, flocks in name
   * order), so one call holds the write lock briefly; call again for the rest. The cut is
   * then the last change before `before` among the flock's next `limit` kept ones (found
   * in a key range, whatever the backlog), so a purge walks the log in id order while it
   * meets old changes.
   * Returns how many were removed.
   */
  purgeChanges(before: string, limit?: number): Promise<number>;
  /**
   * The kept changes of `flock` matching `query`, newest first: a record's history, or the
   * flock's (audit). Each carries the state of its record's previous kept change. A
   * record's page is read by index (flock, type, record id, id); a flock's page walks its
   * log from the newest, and its total counts the kept changes that match.
   * Optional; without it audit answers only from the records and their data events.
   */
  readChangeHistory?(flock: string, query: ChangeHistoryQuery): Promise<ChangeHistoryPage>;

  // --- files ---
  getFile(flock: string, id: string): Promise<StoredFile | undefined>;

  /**
   * A number that moves whenever anything in the database may have changed: this adapter's
   * own writes at once, other processes' commits at the next `syncChanges` (and, between
   * calls of it, within a short bounded delay: the SQLite adapter's 25 ms, PostgreSQL's
   * notification). Lets callers cache derived answers (e.g. serialized responses).
   * Optional and synchronous; an adapter without it is never cached against.
   */
  changeGeneration?(): number;
  /**
   * Brings `changeGeneration` up to date with every commit acknowledged, by any process,
   * before the call: afterwards the generation has moved if anything changed since it was
   * last brought up to date. The server calls it once per request, before any cached
   * answer is looked up, so no read after an acknowledged write can meet a stale entry.
   * Optional; an adapter whose generation is exact already (one process) leaves it out.
   */
  syncChanges?(): Promise<void>;

  /** The connection pool's state, for metrics (adapters with a pool: PostgreSQL). Optional. */
  poolStats?(): PoolStats;

  /** Releases the database. Further calls may fail. */
  close(): Promise<void>;
}
