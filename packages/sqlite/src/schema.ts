/**
 * @module schema
 * The SQLite tables, in drizzle's sqlite-core. `drizzle-kit generate` turns this file into
 * the SQL migrations of `../drizzle/`, which `openDatabase` applies on open.
 *
 * Records live in `records`, keyed by a collection (flock + resource type) and ordered by
 * `rid` (insertion order). The comparable entries (core's `toEntries`) of the data fields
 * the value index keeps (`field_indexes`, core's `writesIndex`) are copied into
 * `record_values`, whose indexes answer exact, prefix and range filters; a filter on any
 * other field reads the records' data (`records_entries`, field-indexes.ts). The three derived tables (`record_values`, `record_refs`,
 * `collection_counts`) are declared WITHOUT ROWID in the SQL migration (drizzle cannot say so).
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Tenants. */
export const flocks = sqliteTable("flocks", {
  identifier: text("identifier").primaryKey(),
  name: text("name").notNull(),
  created: text("created").notNull(),
});

/** Logins; `flocks` is a JSON array of flock identifiers. */
export const users = sqliteTable("users", {
  username: text("username").primaryKey(),
  passwordHash: text("password_hash").notNull(),
  flocks: text("flocks").notNull(),
  role: text("role").notNull(),
  created: text("created").notNull(),
});

/** API keys and self-service session tokens, by the hash of the token. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    tokenHash: text("token_hash").primaryKey(),
    username: text("username").notNull(),
    created: text("created").notNull(),
    expires: text("expires"),
  },
  (t) => [index("api_keys_username_idx").on(t.username)],
);

/**
 * One row counting the commits that changed `flocks`, `users` or `api_keys` (bumped by
 * triggers, migration 0015): the account cache keeps its rows across other writes while
 * this number stays (account-cache.ts).
 */
export const accountChanges = sqliteTable("account_changes", {
  id: integer("id").primaryKey(),
  n: integer("n").notNull(),
});

/**
 * Small keyed state rows with an expiry (`Storage.updateLimit`): login failures and
 * lockouts, shared by every process on the file. `expires_at` is epoch milliseconds; rows
 * are purged by it (its index), never by count.
 */
export const limits = sqliteTable(
  "limits",
  {
    key: text("key").primaryKey(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("limits_expires_at_idx").on(t.expiresAt)],
);

/** Small named values, e.g. the generated signing secret. */
export const settings = sqliteTable("settings", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** One row per (flock, resource type) that has records: the `cid` every other table uses. */
export const collections = sqliteTable(
  "collections",
  {
    cid: integer("cid").primaryKey(),
    flock: text("flock").notNull(),
    type: text("type").notNull(),
  },
  (t) => [uniqueIndex("collections_flock_type_idx").on(t.flock, t.type)],
);

/** Data field names per collection, so index rows carry a small integer instead of the name. */
export const fields = sqliteTable(
  "fields",
  {
    fid: integer("fid").primaryKey(),
    cid: integer("cid")
      .notNull()
      .references(() => collections.cid),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("fields_cid_name_idx").on(t.cid, t.name)],
);

/**
 * The records. `rid` (the rowid) is the insertion order that lists follow; every index
 * below ends in the rowid implicitly, so `WHERE cid=? [AND state=?] ORDER BY rid` walks
 * an index in order without sorting.
 */
export const records = sqliteTable(
  "records",
  {
    rid: integer("rid").primaryKey(),
    cid: integer("cid")
      .notNull()
      .references(() => collections.cid),
    id: text("id").notNull(),
    state: text("state").notNull(),
    data: text("data").notNull(),
    displayValue: text("display_value").notNull(),
    created: text("created").notNull(),
    lastUpdated: text("last_updated").notNull(),
    version: integer("version").notNull(),
    /** A data event's `dedupe_key` as JSON text (core's `dedupeKeyText`); null for every other record. */
    dedupeKey: text("dedupe_key"),
  },
  (t) => [
    // Ids are unique across the store (as in the reference adapter), not only per collection.
    uniqueIndex("records_id_idx").on(t.id),
    index("records_cid_idx").on(t.cid),
    // The deleted records alone (a create or an update touches none of it): a live list walks
    // `records_cid_idx` and skips the few deleted rows; a deleted list, and the live count's
    // deleted matches, walk this one. A (cid, state) index held every record a second time
    // for two pages of every create (docs/decisions.md, "Pages per create").
    index("records_cid_deleted_idx").on(t.cid).where(sql`state = 'deleted'`),
    index("records_cid_created_idx").on(t.cid, t.created),
    index("records_cid_last_updated_idx").on(t.cid, t.lastUpdated),
    // One data event per dedupe key in a collection (flock and type): two processes emitting
    // the same scheduled event at once store it once. A column of its own, set for data
    // events only: an expression over `data` parsed every record's JSON on every write, and
    // held a custom type's `dedupe_key` field unique too (docs/decisions.md).
    uniqueIndex("records_dedupe_key_idx").on(t.cid, t.dedupeKey).where(sql`dedupe_key IS NOT NULL`),
  ],
);

/**
 * One row per distinct entry of every indexed data field of every record (`toEntries`).
 * Clustered by record (rewrites delete a contiguous range); the secondary indexes carry the
 * primary key, so `SELECT rid ... WHERE fid=? AND text=?` is answered from the index alone.
 */
export const recordValues = sqliteTable(
  "record_values",
  {
    rid: integer("rid").notNull(),
    fid: integer("fid").notNull(),
    kind: integer("kind").notNull(),
    text: text("text").notNull(),
    /** The case-folded text; null where folding leaves the text as it is (`valueRows`). */
    folded: text("folded"),
    num: real("num"),
  },
  (t) => [
    primaryKey({ columns: [t.rid, t.fid, t.kind, t.text] }),
    index("record_values_fid_text_idx").on(t.fid, t.text),
    // Only the entries whose folded form differs: the case-insensitive filters read `text` for the rest.
    index("record_values_fid_folded_idx").on(t.fid, t.folded).where(sql`folded IS NOT NULL`),
    index("record_values_fid_num_idx").on(t.fid, t.num).where(sql`num IS NOT NULL`),
  ],
);

/**
 * The value index's registry (issue 24, core's `IndexRegistry`): the fields whose index
 * differs from the defaults (`isIndexedByDefault`), per flock (or `*`, every flock) and
 * type. `cursor` is the last rid a back-fill or removal walked (NULL: not begun), `done` 1
 * once it walked every record.
 */
export const fieldIndexes = sqliteTable(
  "field_indexes",
  {
    flock: text("flock").notNull(),
    type: text("type").notNull(),
    field: text("field").notNull(),
    state: text("state").notNull(),
    source: text("source").notNull(),
    cursor: integer("cursor"),
    done: integer("done").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flock, t.type, t.field] })],
);

/** Which records reference which record URI (data values and `uri;label` list entries). */
export const recordRefs = sqliteTable(
  "record_refs",
  {
    target: text("target").notNull(),
    rid: integer("rid").notNull(),
  },
  (t) => [primaryKey({ columns: [t.target, t.rid] }), index("record_refs_rid_idx").on(t.rid)],
);

/**
 * The search index's queue (issue 24): the rid of every person or organisation written since
 * the last merge, added by `apply` in the write's transaction (one row on the table's last
 * page, instead of an FTS5 segment per transaction) and moved into `record_search` in
 * batches by `mergeSearchIndex` (search.ts). A rid whose record is gone is simply dropped.
 */
export const searchPending = sqliteTable("search_pending", {
  rid: integer("rid").primaryKey(),
});

/** Records per collection and state, kept by `apply`, so totals and summaries need no scan. */
export const collectionCounts = sqliteTable(
  "collection_counts",
  {
    cid: integer("cid").notNull(),
    state: text("state").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.cid, t.state] })],
);

/**
 * The ticket stock read model (core model/ticket-stock): per flock, booking and ticket type,
 * the units its counted tickets take, kept by `apply` in each ticket write's transaction
 * (WITHOUT ROWID in the migration). A row in `ticket_stock_backfill` asks the next open to
 * fill it from the stored tickets (ticket-stock.ts).
 */
export const ticketStock = sqliteTable(
  "ticket_stock",
  {
    flock: text("flock").notNull(),
    booking: text("booking").notNull(),
    bookable: text("bookable").notNull(),
    allocated: integer("allocated").notNull(),
    reserved: integer("reserved").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flock, t.booking, t.bookable] })],
);

/** A row here asks `openDatabase` to fill `ticket_stock` from the stored tickets. */
export const ticketStockBackfill = sqliteTable("ticket_stock_backfill", {
  pending: integer("pending").notNull(),
});

/** Uploaded files, stored in the database so one file holds everything. */
export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    flock: text("flock").notNull(),
    recordType: text("record_type").notNull(),
    recordId: text("record_id").notNull(),
    field: text("field").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
    created: text("created").notNull(),
  },
  (t) => [index("files_record_idx").on(t.flock, t.recordType, t.recordId)],
);

/**
 * The durable outbox: one row per action to run for a data event, written in the same
 * transaction as the event and kept after it finished (operators read the attempts).
 * `seq` is the insertion order (newest first for operators); the worker's claim walks
 * `outbox_due_idx` (pending rows by due time).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull(),
    flock: text("flock").notNull(),
    dataEventId: text("data_event_id").notNull(),
    trigger: text("trigger").notNull(),
    action: text("action").notNull(),
    deliveryId: text("delivery_id").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: text("next_attempt_at").notNull(),
    firstAttemptAt: text("first_attempt_at"),
    lastError: text("last_error"),
    lastStatus: integer("last_status"),
    body: text("body"),
    created: text("created").notNull(),
    /** The claim the job is held under (`claimDueJobs`); null while unclaimed. */
    claimToken: text("claim_token"),
    /** When that claim lapses (timestamp text); null while unclaimed. */
    claimedUntil: text("claimed_until"),
  },
  (t) => [
    uniqueIndex("outbox_id_idx").on(t.id),
    index("outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("outbox_flock_idx").on(t.flock),
    index("outbox_claim_idx").on(t.claimToken).where(sql`claim_token IS NOT NULL`),
  ],
);

/**
 * Per flock, the change feed's last id and purge mark. `apply` moves `last_id` inside its
 * transaction; SQLite runs one write transaction at a time, so ids follow commit order.
 */
export const changeHeads = sqliteTable("change_heads", {
  flock: text("flock").primaryKey(),
  lastId: integer("last_id").notNull(),
  purgedThrough: integer("purged_through").notNull().default(0),
});

/** The change feed: one row per record write, by flock and id (see core's `changeOf`). */
export const changes = sqliteTable(
  "changes",
  {
    flock: text("flock").notNull(),
    id: integer("id").notNull(),
    type: text("type").notNull(),
    recordId: text("record_id").notNull(),
    state: text("state").notNull(),
    version: integer("version").notNull(),
    changedAt: text("changed_at").notNull(),
    /** JSON array of field names. */
    fields: text("fields").notNull(),
    /** Who made the write (core's `Attribution`); null: the service itself, or not known. */
    actor: text("actor"),
    /** The APPLICATION label or `system:` marker it came through; null: unattributed, or not known. */
    application: text("application"),
  },
  (t) => [
    // A rowid table, not WITHOUT ROWID keyed by (flock, id): a create's row lists every field
    // (over 1 KB for a person), more than a WITHOUT ROWID page keeps in place, so each such row
    // took a 4 KB overflow page of its own (docs/decisions.md, "The change log is a rowid table").
    uniqueIndex("changes_flock_id_idx").on(t.flock, t.id),
    index("changes_flock_changed_at_idx").on(t.flock, t.changedAt),
    // A record's history (audit), and each change's previous one. No type: ids are unique across
    // the store, and without it the changes of one write's records (a person and its data
    // event, ids of the same moment) share the index's last page (docs/decisions.md, "Pages per create").
    index("changes_record_idx").on(t.flock, t.recordId, t.id),
    // A filtered change feed's page: a type's changes after a position, in id order.
    index("changes_type_idx").on(t.flock, t.type, t.id),
  ],
);

/** Everything above, for `drizzle(client, { schema })`. */
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
  fieldIndexes,
  collectionCounts,
  ticketStock,
  ticketStockBackfill,
  searchPending,
  files,
  outbox,
  changeHeads,
  changes,
};
