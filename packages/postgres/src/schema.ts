/**
 * @module schema
 * The PostgreSQL tables, in drizzle's pg-core. `drizzle-kit generate` turns this file into
 * the SQL migrations of `../drizzle/`, which `createPostgresStorage` applies on open under
 * an advisory lock.
 *
 * The layout follows the SQLite adapter's (records by collection, ordered by `rid`; every
 * data field's comparable entries copied into `record_values`), with three differences:
 * - every text column that is compared or ordered is `COLLATE "C"` (byte order, the same
 *   as SQLite's BINARY), whatever the database's default collation;
 * - `record_values.text` / `folded` are `bytea` (byte order again, and they hold U+0000,
 *   which PostgreSQL text cannot) limited to their first 1,024 bytes, so that every value
 *   fits a b-tree entry; a longer value is kept whole in `text_long` / `folded_long`;
 * - indexes name `rid` as their last column where SQLite has it implicitly (the rowid).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Text compared in byte (code point) order, independent of the database's locale. */
const ctext = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/** Bytes: file contents and the value index's texts. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** Tenants. */
export const flocks = pgTable("flocks", {
  identifier: ctext("identifier").primaryKey(),
  name: text("name").notNull(),
  created: ctext("created").notNull(),
});

/** Logins; `flocks` is a JSON array of flock identifiers. */
export const users = pgTable("users", {
  username: ctext("username").primaryKey(),
  passwordHash: text("password_hash").notNull(),
  flocks: text("flocks").notNull(),
  role: ctext("role").notNull(),
  created: ctext("created").notNull(),
});

/** API keys and self-service session tokens, by the hash of the token. */
export const apiKeys = pgTable(
  "api_keys",
  {
    tokenHash: ctext("token_hash").primaryKey(),
    username: ctext("username").notNull(),
    created: ctext("created").notNull(),
    expires: ctext("expires"),
  },
  (t) => [index("api_keys_username_idx").on(t.username)],
);

/**
 * Small keyed state rows with an expiry (`Storage.updateLimit`): login failures and
 * lockouts, shared by every process on the database. `expires_at` is epoch milliseconds;
 * rows are purged by it (its index), never by count. No change notification: nothing
 * caches these rows, and a failed login must not empty the account caches.
 */
export const limits = pgTable(
  "limits",
  {
    key: ctext("key").primaryKey(),
    value: text("value").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("limits_expires_at_idx").on(t.expiresAt)],
);

/** Small named values, e.g. the generated signing secret. */
export const settings = pgTable("settings", {
  name: ctext("name").primaryKey(),
  value: text("value").notNull(),
});

/**
 * One row: a number that moves with every statement on `flocks`, `users` or `api_keys`
 * (a trigger in the writer's transaction), so a process's cached account lookups can
 * survive other writes and still see another process's account change (change-watch.ts).
 */
export const accountGeneration = pgTable("account_generation", {
  n: bigint("n", { mode: "number" }).notNull(),
});

/** One row per (flock, resource type) that has records: the `cid` every other table uses. */
export const collections = pgTable(
  "collections",
  {
    cid: integer("cid").primaryKey().generatedAlwaysAsIdentity(),
    flock: ctext("flock").notNull(),
    type: ctext("type").notNull(),
  },
  (t) => [uniqueIndex("collections_flock_type_idx").on(t.flock, t.type)],
);

/** Data field names per collection, so index rows carry a small integer instead of the name. */
export const fields = pgTable(
  "fields",
  {
    fid: integer("fid").primaryKey().generatedAlwaysAsIdentity(),
    cid: integer("cid")
      .notNull()
      .references(() => collections.cid),
    name: ctext("name").notNull(),
  },
  (t) => [uniqueIndex("fields_cid_name_idx").on(t.cid, t.name)],
);

/**
 * The records. `rid` is the insertion order that lists follow; the indexes end in `rid`,
 * so `WHERE cid=? [AND state=?] ORDER BY rid` walks an index in order without sorting.
 */
export const records = pgTable(
  "records",
  {
    rid: bigint("rid", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    cid: integer("cid")
      .notNull()
      .references(() => collections.cid),
    id: ctext("id").notNull(),
    state: ctext("state").notNull(),
    data: text("data").notNull(),
    displayValue: text("display_value").notNull(),
    created: ctext("created").notNull(),
    lastUpdated: ctext("last_updated").notNull(),
    version: integer("version").notNull(),
    /** A data event's `dedupe_key` as JSON text (core's `dedupeKeyText`); null for every other record. */
    dedupeKey: ctext("dedupe_key"),
  },
  (t) => [
    // Ids are unique across the store (as in the reference adapter), not only per collection.
    uniqueIndex("records_id_idx").on(t.id),
    index("records_cid_idx").on(t.cid, t.rid),
    // The deleted records alone (a create or an update touches none of it); live lists walk
    // `records_cid_idx` past the few deleted rows (as on SQLite: docs/decisions.md, "Pages per create").
    index("records_cid_deleted_idx").on(t.cid, t.rid).where(sql`state = 'deleted'`),
    index("records_cid_created_idx").on(t.cid, t.created),
    index("records_cid_last_updated_idx").on(t.cid, t.lastUpdated),
    // One data event per dedupe key in a collection (flock and type): two processes emitting
    // the same scheduled event at once store it once. A column of its own, set for data
    // events only: an expression casting `data` to jsonb failed (a 500) on data holding a
    // `\u0000` or a lone surrogate, and held a custom type's `dedupe_key` unique too.
    uniqueIndex("records_dedupe_key_idx").on(t.cid, t.dedupeKey).where(sql`dedupe_key IS NOT NULL`),
  ],
);

/**
 * One row per distinct entry of every data field of every record (`valueRows`). The
 * secondary indexes end in `rid`, so `SELECT rid ... WHERE fid=? AND text=?` is an
 * index-only scan, already in `rid` order.
 */
export const recordValues = pgTable(
  "record_values",
  {
    rid: bigint("rid", { mode: "number" }).notNull(),
    fid: integer("fid").notNull(),
    kind: smallint("kind").notNull(),
    /** The entry's UTF-8 bytes, at most the first 1,024 (`PG_VALUE_KEY_BYTES`). */
    text: bytea("text").notNull(),
    /** The whole entry when longer than `text` holds; null otherwise. */
    textLong: bytea("text_long"),
    /** The case-folded entry, like `text`; null where folding leaves the text as it is. */
    folded: bytea("folded"),
    foldedLong: bytea("folded_long"),
    num: doublePrecision("num"),
  },
  (t) => [
    // Rewrites delete by rid, scans probe by it. A hash index: a b-tree on rid would offer the
    // planner a walk of every field's entries in rid order, which it takes for filters whose
    // matches it overestimates (ranges, substrings) when a page is limited.
    index("record_values_rid_idx").using("hash", t.rid),
    index("record_values_fid_text_idx").on(t.fid, t.text, t.rid),
    // Only the entries whose folded form differs: the case-insensitive filters read `text` for the rest.
    index("record_values_fid_folded_idx").on(t.fid, t.folded, t.rid).where(sql`folded IS NOT NULL`),
    index("record_values_fid_num_idx").on(t.fid, t.num, t.rid).where(sql`num IS NOT NULL`),
  ],
);

/**
 * The value index's registry (issue 24, core's `IndexRegistry`): the fields whose index
 * differs from the defaults (`isIndexedByDefault`), per flock (or `*`, every flock) and
 * type. `cursor` is the last rid a back-fill or removal walked (NULL: not begun), `done`
 * true once it walked every record.
 */
export const fieldIndexes = pgTable(
  "field_indexes",
  {
    flock: ctext("flock").notNull(),
    type: ctext("type").notNull(),
    field: ctext("field").notNull(),
    state: ctext("state").notNull(),
    source: ctext("source").notNull(),
    cursor: bigint("cursor", { mode: "number" }),
    done: boolean("done").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flock, t.type, t.field] })],
);

/** A row here asks `migrateDatabase` to mark the fields an older version indexed that the defaults do not want (field-indexes.ts). */
export const fieldIndexesFill = pgTable("field_indexes_fill", {
  pending: integer("pending").notNull(),
});

/**
 * Which records keep every field's entries (`records_stores_entries`, field-indexes.ts): one
 * row. `pattern` is `base` (migration 0011) and a class of the characters `folds` (code
 * points) that PostgreSQL's ICU and the service's JavaScript fold differently, as found
 * for the version pairs in `checked`.
 */
export const recordsEntriesRule = pgTable("records_entries_rule", {
  base: text("base").notNull(),
  pattern: text("pattern").notNull(),
  folds: integer("folds").array().notNull(),
  checked: text("checked").array().notNull(),
});

/** Which records reference which record URI (data values and `uri;label` list entries). */
export const recordRefs = pgTable(
  "record_refs",
  {
    target: text("target").notNull(),
    rid: bigint("rid", { mode: "number" }).notNull(),
  },
  // A hash index: targets are compared for equality only, and may be longer than a b-tree entry.
  (t) => [index("record_refs_target_idx").using("hash", t.target), index("record_refs_rid_idx").on(t.rid)],
);

/** Records per collection and state, kept by `apply`, so totals and summaries need no scan. */
export const collectionCounts = pgTable(
  "collection_counts",
  {
    cid: integer("cid").notNull(),
    state: ctext("state").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.cid, t.state] })],
);

/**
 * The ticket stock read model (core model/ticket-stock): per flock, booking and ticket type,
 * the units its counted tickets take, kept by `apply` in each ticket write's transaction.
 * A row in `ticket_stock_backfill` asks `migrateDatabase` to fill it from the stored
 * tickets (ticket-stock.ts).
 */
export const ticketStock = pgTable(
  "ticket_stock",
  {
    flock: ctext("flock").notNull(),
    booking: ctext("booking").notNull(),
    bookable: ctext("bookable").notNull(),
    allocated: bigint("allocated", { mode: "number" }).notNull(),
    reserved: bigint("reserved", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.flock, t.booking, t.bookable] })],
);

/** A row here asks `migrateDatabase` to fill `ticket_stock` from the stored tickets. */
export const ticketStockBackfill = pgTable("ticket_stock_backfill", {
  pending: integer("pending").notNull(),
});

/** Uploaded files, stored in the database so it holds everything. */
export const files = pgTable(
  "files",
  {
    id: ctext("id").primaryKey(),
    flock: ctext("flock").notNull(),
    recordType: ctext("record_type").notNull(),
    recordId: ctext("record_id").notNull(),
    field: text("field").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    created: ctext("created").notNull(),
  },
  (t) => [index("files_record_idx").on(t.flock, t.recordType, t.recordId)],
);

/**
 * The durable outbox: one row per action to run for a data event, written in the same
 * transaction as the event and kept after it finished (operators read the attempts).
 * `seq` is the insertion order (newest first for operators); the worker's claim walks
 * `outbox_due_idx` (pending rows by due time).
 */
export const outbox = pgTable(
  "outbox",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    id: ctext("id").notNull(),
    flock: ctext("flock").notNull(),
    dataEventId: ctext("data_event_id").notNull(),
    trigger: ctext("trigger").notNull(),
    action: ctext("action").notNull(),
    deliveryId: ctext("delivery_id").notNull(),
    status: ctext("status").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: ctext("next_attempt_at").notNull(),
    firstAttemptAt: ctext("first_attempt_at"),
    lastError: text("last_error"),
    lastStatus: integer("last_status"),
    body: text("body"),
    created: ctext("created").notNull(),
    /** The claim the job is held under (`claimDueJobs`); null while unclaimed. */
    claimToken: ctext("claim_token"),
    /** When that claim lapses (timestamp text); null while unclaimed. */
    claimedUntil: ctext("claimed_until"),
  },
  (t) => [
    uniqueIndex("outbox_id_idx").on(t.id),
    index("outbox_claim_idx").on(t.claimToken).where(sql`claim_token IS NOT NULL`),
    index("outbox_due_idx").on(t.status, t.nextAttemptAt, t.id),
    index("outbox_flock_idx").on(t.flock, t.seq),
    index("outbox_event_idx").on(t.dataEventId),
  ],
);

/**
 * Per flock, the change feed's last id and purge mark. `apply` moves `last_id` as its last
 * statement; the row lock it takes is held until commit, so a flock's ids are handed out
 * in commit order (see docs/decisions.md, issue 13).
 */
export const changeHeads = pgTable("change_heads", {
  flock: ctext("flock").primaryKey(),
  lastId: bigint("last_id", { mode: "number" }).notNull(),
  purgedThrough: bigint("purged_through", { mode: "number" }).notNull().default(0),
});

/** The change feed: one row per record write, by flock and id (see core's `changeOf`). */
export const changes = pgTable(
  "changes",
  {
    flock: ctext("flock").notNull(),
    id: bigint("id", { mode: "number" }).notNull(),
    type: ctext("type").notNull(),
    recordId: ctext("record_id").notNull(),
    state: ctext("state").notNull(),
    version: integer("version").notNull(),
    changedAt: ctext("changed_at").notNull(),
    /** JSON array of field names (JSON escapes U+0000, which text cannot hold). */
    fields: text("fields").notNull(),
    /** Who made the write (core's `Attribution`); null: the service itself, or not known. */
    actor: text("actor"),
    /** The APPLICATION label or `system:` marker it came through; null: unattributed, or not known. */
    application: text("application"),
  },
  (t) => [
    primaryKey({ columns: [t.flock, t.id] }),
    index("changes_flock_changed_at_idx").on(t.flock, t.changedAt),
    // A record's history (audit), and each change's previous one. No type: ids are unique across
    // the store, and a write's records (ids of the same moment) then share the index's last page.
    index("changes_record_idx").on(t.flock, t.recordId, t.id),
    // A filtered change feed's page: a type's changes after a position, in id order.
    index("changes_type_idx").on(t.flock, t.type, t.id),
  ],
);

/** Everything above, for `drizzle(pool, { schema })`. */
export const schema = {
  flocks,
  users,
  apiKeys,
  limits,
  settings,
  collections,
  fields,
  records,
  recordValues,
  recordRefs,
  collectionCounts,
  ticketStock,
  ticketStockBackfill,
  fieldIndexes,
  fieldIndexesFill,
  recordsEntriesRule,
  files,
  outbox,
  changeHeads,
  changes,
};
