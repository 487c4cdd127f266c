/**
 * @module write
 * `apply(changes)`: one synchronous better-sqlite3 transaction that writes records with
 * their optimistic version check, keeps `record_values`, `record_refs` and
 * `collection_counts` and `ticket_stock` in step, queues its searched records for the search index (or, a
 * large change set, indexes them itself: see search.ts), stores (or removes) files, queues outbox jobs and logs each
 * record write for the change feed. Any conflict throws and rolls back all.
 */
import { changeOf, conflict, dedupeKeyText, SEARCH_TYPES, searchDocumentMayChange, TICKET_STOCK_FIELDS, TICKET_TYPE, TicketStockDeltas, ticketStockOf, type ChangeSet, type RecordState, type PendingChange, type RecordWrite, type StoredFile, type StoredRecord } from "@records-service/core";
import { and, eq, sql } from "drizzle-orm";
import type { Catalog } from "./catalog.js";
import { createChangeLog, type ChangeLog } from "./changes.js";
import { refTargets, valueRows } from "@records-service/sql";
import type { Db } from "./open.js";
import { createOutboxStore, type OutboxStore } from "./outbox.js";
import { files } from "./schema.js";
import { createFieldIndexes, type FieldIndexes } from "./field-indexes.js";
import { createSearchIndexer, SEARCH_DIRECT_MIN } from "./search.js";
import { createTicketStockWriter } from "./ticket-stock.js";

/** Applies a change set atomically (synchronously; the Storage wrapper makes it async). */
export type Applier = (changes: ChangeSet) => void;

/** The writer for one connection. */
export function createApplier(
  db: Db,
  catalog: Catalog,
  outbox: OutboxStore = createOutboxStore(db.$client),
  changeLog: ChangeLog = createChangeLog(db.$client),
  indexes: Pick<FieldIndexes, "writes"> = createFieldIndexes(db.$client, catalog),
): Applier {
  const client = db.$client;
  const p = (name: string) => sql.placeholder(name);
  const search = createSearchIndexer(client);

  const selExisting = client.prepare<[number, string], { rid: number; state: string; version: number; created: string }>(
    "SELECT rid, state, version, created FROM records WHERE cid = ? AND id = ?",
  );
  const selIdTaken = client.prepare<[string], { rid: number }>("SELECT rid FROM records WHERE id = ?");
  // A plain statement with positional values: drizzle's prepared insert mapped a named
  // object per record (~10% of an imported person's statements).
  const insRecord = client.prepare<[number, string, string, string, string, string, string, number, string | null]>(
    "INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version, dedupe_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const updRecord = client.prepare<[string, string, string, string, string, number, string | null, number, number]>(
    "UPDATE records SET state = ?, data = ?, display_value = ?, created = ?, last_updated = ?, version = ?, dedupe_key = ? WHERE rid = ? AND version = ?",
  );
  // An update that keeps `created` (every update the engine makes) leaves it out of the SET:
  // SQLite rewrites the entry of every index on a column the SET names, changed or not, and
  // `records_cid_created_idx`'s cost a PUT one of its 11 pages.
  const updKeepingCreated = client.prepare<[string, string, string, string, number, string | null, number, number]>(
    "UPDATE records SET state = ?, data = ?, display_value = ?, last_updated = ?, version = ?, dedupe_key = ? WHERE rid = ? AND version = ?",
  );
  const insFile = db
    .insert(files)
    .values({
      id: p("id"),
      flock: p("flock"),
      recordType: p("recordType"),
      recordId: p("recordId"),
      field: p("field"),
      filename: p("filename"),
      contentType: p("contentType"),
      bytes: p("bytes"),
      created: p("created"),
    })
    .onConflictDoNothing()
    .prepare();
  const delFiles = db
    .delete(files)
    .where(and(eq(files.flock, p("flock")), eq(files.recordType, p("type")), eq(files.recordId, p("id"))))
    .prepare();

  // The derived tables are written many rows per record: plain prepared statements.
  const insValue = client.prepare(
    "INSERT OR IGNORE INTO record_values (rid, fid, kind, text, folded, num) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const delValues = client.prepare("DELETE FROM record_values WHERE rid = ? AND fid = ?");
  const insRef = client.prepare("INSERT OR IGNORE INTO record_refs (target, rid) VALUES (?, ?)");
  const delRefs = client.prepare("DELETE FROM record_refs WHERE rid = ?");
  const addCount = client.prepare(
    "INSERT INTO collection_counts (cid, state, n) VALUES (?, ?, ?) ON CONFLICT (cid, state) DO UPDATE SET n = n + excluded.n",
  );

  const selData = client.prepare<[number], { data: string }>("SELECT data FROM records WHERE rid = ?");
  const writeStock = createTicketStockWriter(client);

  const writeValues = (rid: number, cid: number, field: string, value: unknown): void => {
    const rows = valueRows(value);
    if (rows.length === 0) return;
    const fid = catalog.ensureField(cid, field);
    for (const r of rows) insValue.run(rid, fid, r.kind, r.text, r.folded, r.num);
  };

  const writeRefs = (rid: number, r: StoredRecord): void => {
    for (const target of refTargets(r)) insRef.run(target, rid);
  };

  /**
   * Which fields of a collection the value index keeps, read from the registry once per
   * collection inside each transaction (so a field another process began to index or
   * dropped is seen by the next write, under the same write lock).
   */
  let keeps = new Map<string, (field: string) => boolean>();
  const keptFields = (flock: string, type: string): ((field: string) => boolean) => {
    const key = `${flock}\u0000${type}`;
    let fn = keeps.get(key);
    if (!fn) keeps.set(key, (fn = _remembered(indexes.writes(flock, type))));
    return fn;
  };

  /** Into the search index now (a large change set) or through its queue. */
  let searchNow = false;
  const searchPut = (rid: number, r: StoredRecord, inserted: boolean): void => (searchNow ? search.put(rid, r, inserted) : search.queue(rid, r));

  const insert = (r: StoredRecord, counts: _Counts, stock: TicketStockDeltas, logged: PendingChange[]): void => {
    // Ids are unique across the store, whatever the flock and type.
    if (selIdTaken.get(r.id)) throw conflict("record exists", `a record with id '${r.id}' exists`);
    const cid = catalog.ensureCollection(r.flock, r.type);
    const rid = Number(
      _unique(() => insRecord.run(cid, r.id, r.state, JSON.stringify(r.data), r.displayValue, r.created, r.lastUpdated, r.version, dedupeKeyText(r)), r).lastInsertRowid,
    );
    const kept = keptFields(r.flock, r.type);
    for (const field in r.data) if (Object.hasOwn(r.data, field) && kept(field)) writeValues(rid, cid, field, r.data[field]);
    writeRefs(rid, r);
    searchPut(rid, r, true);
    counts.add(cid, r.state, 1);
    stock.add(ticketStockOf(r));
    logged.push(changeOf({ kind: "insert", record: r }));
  };

  const update = (w: UpdateWrite, counts: _Counts, stock: TicketStockDeltas, logged: PendingChange[]): void => {
    const { record: r, expectedVersion } = w;
    const cid = catalog.collectionId(r.flock, r.type);
    const old = cid === undefined ? undefined : selExisting.get(cid, r.id);
    if (cid === undefined || !old) throw conflict("record not found", `${r.type} ${r.id} does not exist in flock ${r.flock}`);
    if (old.version !== expectedVersion) {
      throw conflict(
        "version conflict",
        `${r.type} ${r.id} is at version ${old.version}, not ${expectedVersion}: it changed since it was read`,
      );
    }
    // The stored ticket as it was (read under the write lock, at the checked version) leaves
    // the stock and the new one enters it; a write that moves none of what counts reads nothing.
    const change = changeOf(w);
    if (r.type === TICKET_TYPE && (old.state !== r.state || change.fields.some((f) => TICKET_STOCK_FIELDS.includes(f)))) {
      stock.sub(ticketStockOf({ flock: r.flock, type: r.type, state: old.state as RecordState, data: JSON.parse(selData.get(old.rid)!.data) as Record<string, unknown> }));
      stock.add(ticketStockOf(r));
    }
    const text = JSON.stringify(r.data);
    _unique(
      () =>
        r.created === old.created
          ? updKeepingCreated.run(r.state, text, r.displayValue, r.lastUpdated, r.version, dedupeKeyText(r), old.rid, expectedVersion)
          : updRecord.run(r.state, text, r.displayValue, r.created, r.lastUpdated, r.version, dedupeKeyText(r), old.rid, expectedVersion),
      r,
    );
    // Rewrite the index rows of the changed fields (as the engine decided them) only: state
    // changes and touches rewrite none.
    logged.push(change);
    const changed = change.fields.length > 0;
    const kept = changed ? keptFields(r.flock, r.type) : undefined;
    for (const field of change.fields) {
      // Any old entries go (also a dropped field's leftovers); new ones only where the index is kept.
      const fid = catalog.fieldId(cid, field);
      if (fid !== undefined) delValues.run(old.rid, fid);
      if (kept!(field)) writeValues(old.rid, cid, field, r.data[field]);
    }
    if (changed) {
      delRefs.run(old.rid);
      writeRefs(old.rid, r);
    }
    // A change of no searched field leaves the search document as it is (`before` tells).
    if ((changed || old.state !== r.state) && (w.before?.version !== expectedVersion || searchDocumentMayChange(w.before, r, change.fields))) searchPut(old.rid, r, false);
    if (old.state !== r.state) {
      counts.add(cid, old.state, -1);
      counts.add(cid, r.state, 1);
    }
  };

  const storeFile = (f: StoredFile): void => {
    const res = insFile.run({
      id: f.id,
      flock: f.flock,
      recordType: f.recordType,
      recordId: f.recordId,
      field: f.field,
      filename: f.filename,
      contentType: f.contentType,
      bytes: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength),
      created: f.created,
    });
    if (res.changes === 0) throw conflict("file exists", `file ${f.id} already exists`);
  };

  const run = client.transaction((changes: ChangeSet) => {
    const counts = new _Counts();
    const stock = new TicketStockDeltas();
    const logged: PendingChange[] = [];
    keeps = new Map();
    searchNow = (changes.records ?? []).filter((w) => SEARCH_TYPES.includes(w.record.type)).length >= SEARCH_DIRECT_MIN;
    for (const w of changes.records ?? []) {
      if (w.kind === "insert") insert(w.record, counts, stock, logged);
      else update(w, counts, stock, logged);
    }
    for (const f of changes.files ?? []) storeFile(f);
    for (const owner of changes.removeFilesOf ?? []) delFiles.run({ flock: owner.flock, type: owner.type, id: owner.id });
    for (const job of changes.outbox ?? []) outbox.insert(job);
    for (const [cid, state, n] of counts.entries()) addCount.run(cid, state, n);
    writeStock(stock.rows());
    changeLog.append(logged, changes.attribution);
  });

  return (changes) => {
    try {
      // IMMEDIATE: take the write lock first (waiting up to busy_timeout), so that another
      // process's commit between this transaction's reads and its first write cannot fail it
      // with "database is locked" (a deferred transaction cannot wait to upgrade its lock).
      run.immediate(changes);
    } catch (e) {
      // Ids created by the rolled-back transaction must not stay cached.
      catalog.forget();
      throw e;
    }
  };
}

// --- internal ---

type UpdateWrite = Extract<RecordWrite, { kind: "update" }>;

/** Count deltas gathered over one transaction, written once at its end. */
class _Counts {
  private readonly deltas = new Map<string, [number, string, number]>();

  add(cid: number, state: string, n: number): void {
    const key = `${cid}:${state}`;
    const d = this.deltas.get(key);
    if (d) d[2] += n;
    else this.deltas.set(key, [cid, state, n]);
  }

  entries(): [number, string, number][] {
    return [...this.deltas.values()].filter((d) => d[2] !== 0);
  }
}

/**
 * `keeps` asked once per field: the registry's answer for a field does not change within
 * one transaction (each transaction asks the registry afresh), and a person has ~77 fields.
 */
function _remembered(keeps: (field: string) => boolean): (field: string) => boolean {
  const answers = new Map<string, boolean>();
  return (field) => {
    let kept = answers.get(field);
    if (kept === undefined) answers.set(field, (kept = keeps(field)));
    return kept;
  };
}

/**
 * Runs an insert, turning a unique-index violation (`records_dedupe_key_idx`: a data event
 * with this dedupe key exists in the flock, stored meanwhile by another process) into a
 * `conflict`, as every adapter reports it.
 */
function _unique<T>(run: () => T, r: StoredRecord): T {
  try {
    return run();
  } catch (e) {
    if ((e as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw conflict("event exists", `a data event with dedupe_key ${JSON.stringify(r.data.dedupe_key)} exists in flock '${r.flock}'`);
    }
    throw e;
  }
}
