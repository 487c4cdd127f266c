/**
 * @module write
 * `apply(changes)` inside one transaction: records with their optimistic version check
 * (the row is locked with `FOR UPDATE`, so of concurrent writers of one version exactly
 * one wins and the others see the new version and get `conflict`), `record_values`,
 * `record_refs`, the search index, `collection_counts` and `ticket_stock` kept in step, files stored or removed, outbox jobs
 * queued. Consecutive inserts go in one multi-row statement (up to `INSERT_CHUNK`), so a
 * large change set costs a few round trips, not one per record. Index rows are gathered
 * over the change set and inserted with one statement each at the end; the kept counts are
 * updated last, in a fixed order, so the hot count row is locked only for the commit and
 * two writers never wait on each other in a cycle. Last of all the record writes are logged
 * for the change feed (`appendChanges`: its per-flock head lock is held only for the commit).
 */
import {
  changeOf,
  conflict,
  dedupeKeyText,
  TICKET_STOCK_FIELDS,
  TICKET_TYPE,
  TicketStockDeltas,
  ticketStockOf,
  type ChangeSet,
  type PendingChange,
  type RecordState,
  type RecordWrite,
  type StoredFile,
  type StoredRecord,
} from "@records-service/core";
import { refTargets, valueRows } from "@records-service/sql";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { WriteIds } from "./catalog.js";
import { appendChanges } from "./changes.js";
import { exec } from "./exec.js";
import { writeRules, type WriteRules } from "./field-indexes.js";
import { insertJob } from "./outbox.js";
import { searchDoc } from "./search.js";
import { encodeText } from "./text-codec.js";
import { addTicketStock } from "./ticket-stock.js";
import { insertValues, type ValueInsert } from "./values.js";

/**
 * Applies `changes` on `c`, a client inside a transaction the caller commits.
 *
 * @example
 * await transaction(pool, async (c) => { const ids = catalog.forWrite(c); await applyChanges(c, ids, changes); });
 */
export async function applyChanges(c: pg.PoolClient, ids: WriteIds, changes: ChangeSet): Promise<void> {
  // First of all (before any record lock): the registry, under its types' shared locks.
  const w = new _Writer(c, ids, await writeRules(c, (changes.records ?? []).map((ch) => ch.record)));
  // A run of inserts is written at once; an update may read a record inserted before it.
  let run: StoredRecord[] = [];
  for (const change of changes.records ?? []) {
    if (change.kind === "insert") {
      run.push(change.record);
      if (run.length >= INSERT_CHUNK) run = await w.insertAll(run);
      continue;
    }
    run = await w.insertAll(run);
    await w.update(change);
  }
  await w.insertAll(run);
  for (const f of changes.files ?? []) await _storeFile(c, f);
  for (const owner of changes.removeFilesOf ?? []) {
    await exec(
      c,
      sql`DELETE FROM files WHERE flock = ${owner.flock} AND record_type = ${owner.type} AND record_id = ${owner.id}`,
      "remove_files_of",
    );
  }
  for (const job of changes.outbox ?? []) await insertJob(c, job);
  await w.flush();
  await appendChanges(c, w.logged, changes.attribution);
}

/** Most records one INSERT statement writes (its parameters are eight arrays of this length). */
export const INSERT_CHUNK = 1000;

// --- internal ---

class _Writer {
  /** Index rows to insert, by rid and fid (an update later in the set replaces a field's rows). */
  private readonly values = new Map<number, Map<number, ValueInsert[]>>();
  private readonly refs = new Map<number, string[]>();
  /** Search rows to write by rid (null: remove), and the rids whose old row goes first. */
  private readonly search = new Map<number, string | null>();
  private readonly searchReplaced = new Set<number>();
  private readonly counts = new Map<string, [number, string, number]>();
  private readonly stock = new TicketStockDeltas();
  /** The change feed's rows, in write order. */
  readonly logged: PendingChange[] = [];

  constructor(
    private readonly c: pg.PoolClient,
    private readonly ids: WriteIds,
    private readonly rules: WriteRules,
  ) {}

  /**
   * Inserts `records` with one statement, in their order (so their `rid`s follow it), then
   * gathers their index rows. An id that exists, or repeats within the run, is a conflict
   * (the caller's transaction rolls back). Returns a new empty run.
   */
  async insertAll(records: readonly StoredRecord[]): Promise<StoredRecord[]> {
    if (records.length === 0) return [];
    const cids: number[] = [];
    for (const r of records) cids.push(await this.ids.ensureCollection(r.flock, r.type));
    const p = sql.param;
    const col = <T>(f: (r: StoredRecord) => T) => p(records.map(f));
    const texts = records.map((r) => JSON.stringify(r.data));
    // Ids are unique across the store, whatever the flock and type. ORDER BY ord: rids are
    // drawn in input order, which is the list order.
    const { rows } = await exec<{ id: string; rid: string }>(
      this.c,
      sql`INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version, dedupe_key)
          SELECT u.cid, u.id, u.state, u.data, u.display_value, u.created, u.last_updated, u.version, u.dedupe_key
          FROM unnest(${p(cids)}::int[], ${col((r) => r.id)}::text[], ${col((r) => r.state)}::text[],
            ${p(texts)}::text[], ${col((r) => encodeText(r.displayValue))}::text[],
            ${col((r) => r.created)}::text[], ${col((r) => r.lastUpdated)}::text[], ${col((r) => r.version)}::int[],
            ${col(dedupeKeyText)}::text[])
            WITH ORDINALITY AS u(cid, id, state, data, display_value, created, last_updated, version, dedupe_key, ord)
          ORDER BY u.ord
          ON CONFLICT (id) DO NOTHING RETURNING id, rid`,
      "insert_records",
    );
    const rids = new Map(rows.map((row) => [row.id, Number(row.rid)]));
    for (const [i, r] of records.entries()) {
      const rid = rids.get(r.id);
      // Not inserted (it existed), or inserted by an earlier entry of this run.
      if (rid === undefined) throw conflict("record exists", `a record with id '${r.id}' exists`);
      rids.delete(r.id);
      // Only the fields the registry keeps, unless records_entries cannot read this data.
      const keeps = this.rules.storesAll(texts[i]!) ? () => true : this.rules.keeps(r.flock, r.type);
      for (const [field, value] of Object.entries(r.data)) if (keeps(field)) await this.setValues(rid, cids[i]!, field, value);
      this.refs.set(rid, refTargets(r.data));
      this.search.set(rid, searchDoc(r) ?? null);
      this.count(cids[i]!, r.state, 1);
      this.stock.add(ticketStockOf(r));
      this.logged.push(changeOf({ kind: "insert", record: r }));
    }
    return [];
  }

  async update(write: Extract<RecordWrite, { kind: "update" }>): Promise<void> {
    const { record: r, expectedVersion } = write;
    const cid = await this.ids.collectionId(r.flock, r.type);
    const { rows } =
      cid === undefined
        ? { rows: [] }
        : await exec<{ rid: string; state: string; version: number; data?: string }>(
            this.c,
            // A ticket's stored data too: what it took from the stock (read under the row lock).
            r.type === TICKET_TYPE
              ? sql`SELECT rid, state, version, data FROM records WHERE cid = ${cid} AND id = ${r.id} FOR UPDATE`
              : sql`SELECT rid, state, version FROM records WHERE cid = ${cid} AND id = ${r.id} FOR UPDATE`,
            r.type === TICKET_TYPE ? "lock_ticket" : "lock_record",
          );
    const old = rows[0];
    if (cid === undefined || !old) throw conflict("record not found", `${r.type} ${r.id} does not exist in flock ${r.flock}`);
    if (old.version !== expectedVersion) {
      throw conflict(
        "version conflict",
        `${r.type} ${r.id} is at version ${old.version}, not ${expectedVersion}: it changed since it was read`,
      );
    }
    const rid = Number(old.rid);
    const text = JSON.stringify(r.data);
    await exec(
      this.c,
      sql`UPDATE records SET state = ${r.state}, data = ${text}, display_value = ${encodeText(r.displayValue)},
            created = ${r.created}, last_updated = ${r.lastUpdated}, version = ${r.version}, dedupe_key = ${dedupeKeyText(r)}
          WHERE rid = ${rid}`,
      "update_record",
    );
    // Rewrite the index rows of the changed fields (as the engine decided them) only: state
    // changes and touches rewrite none.
    const change = changeOf(write);
    this.logged.push(change);
    if (old.data !== undefined && (old.state !== r.state || change.fields.some((f) => TICKET_STOCK_FIELDS.includes(f)))) {
      this.stock.sub(ticketStockOf({ flock: r.flock, type: r.type, state: old.state as RecordState, data: JSON.parse(old.data) as Record<string, unknown> }));
      this.stock.add(ticketStockOf(r));
    }
    const changed: number[] = [];
    const anyChanged = change.fields.length > 0;
    // Data records_entries cannot read keeps every field's entries: all are rewritten (the
    // record may have had none of the fields the registry does not keep).
    const all = anyChanged && this.rules.storesAll(text);
    const keeps = all ? () => true : this.rules.keeps(r.flock, r.type);
    for (const field of all ? new Set([...change.fields, ...Object.keys(r.data)]) : change.fields) {
      // Any old entries go (also a dropped field's leftovers); new ones only where the index is kept.
      const fid = await this.ids.fieldId(cid, field);
      if (fid !== undefined) {
        changed.push(fid);
        this.values.get(rid)?.delete(fid);
      }
      if (keeps(field)) await this.setValues(rid, cid, field, r.data[field]);
    }
    if (changed.length > 0) {
      await exec(this.c, sql`DELETE FROM record_values WHERE rid = ${rid} AND fid = ANY(${sql.param(changed)}::int[])`, "delete_values");
    }
    if (anyChanged) {
      await exec(this.c, sql`DELETE FROM record_refs WHERE rid = ${rid}`, "delete_refs");
      this.refs.set(rid, refTargets(r.data));
    }
    if (anyChanged || old.state !== r.state) {
      this.search.set(rid, searchDoc(r) ?? null);
      this.searchReplaced.add(rid);
    }
    if (old.state !== r.state) {
      this.count(cid, old.state, -1);
      this.count(cid, r.state, 1);
    }
  }

  /** Inserts the gathered index rows, then moves the kept counts. */
  async flush(): Promise<void> {
    await insertValues(this.c, [...this.values.values()].flatMap((byField) => [...byField.values()].flat()));
    const refRids: number[] = [];
    const refTargetsOf: string[] = [];
    for (const [rid, targets] of this.refs) {
      for (const t of targets) {
        refRids.push(rid);
        refTargetsOf.push(encodeText(t));
      }
    }
    if (refRids.length > 0) {
      await exec(
        this.c,
        sql`INSERT INTO record_refs (target, rid) SELECT * FROM unnest(${sql.param(refTargetsOf)}::text[], ${sql.param(refRids)}::bigint[])`,
        "insert_refs",
      );
    }
    await this.flushSearch();
    await addTicketStock(this.c, this.stock.rows());
    // Sorted, so concurrent writers lock count rows in the same order (no deadlock).
    const counts = [...this.counts.values()].filter((d) => d[2] !== 0).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    if (counts.length > 0) {
      await exec(
        this.c,
        sql`INSERT INTO collection_counts (cid, state, n)
            SELECT * FROM unnest(${sql.param(counts.map((d) => d[0]))}::int[], ${sql.param(counts.map((d) => d[1]))}::text[], ${sql.param(counts.map((d) => d[2]))}::int[])
            ON CONFLICT (cid, state) DO UPDATE SET n = collection_counts.n + excluded.n`,
        "add_counts",
      );
    }
  }

  /** Replaces the search rows of updated records and inserts the new ones. */
  private async flushSearch(): Promise<void> {
    if (this.searchReplaced.size > 0) {
      await exec(this.c, sql`DELETE FROM record_search WHERE rid = ANY(${sql.param([...this.searchReplaced])}::bigint[])`, "delete_search");
    }
    const rows = [...this.search].filter((e): e is [number, string] => e[1] !== null);
    if (rows.length === 0) return;
    await exec(
      this.c,
      sql`INSERT INTO record_search (rid, doc)
          SELECT u.rid, u.doc::tsvector FROM unnest(${sql.param(rows.map((e) => e[0]))}::bigint[], ${sql.param(rows.map((e) => e[1]))}::text[]) AS u(rid, doc)`,
      "insert_search",
    );
  }

  private async setValues(rid: number, cid: number, field: string, value: unknown): Promise<void> {
    const rows = valueRows(value);
    if (rows.length === 0) return;
    const fid = await this.ids.ensureField(cid, field);
    let byField = this.values.get(rid);
    if (!byField) this.values.set(rid, (byField = new Map()));
    byField.set(
      fid,
      rows.map((r) => ({ rid, fid, ...r })),
    );
  }

  private count(cid: number, state: string, n: number): void {
    const key = `${cid}:${state}`;
    const d = this.counts.get(key);
    if (d) d[2] += n;
    else this.counts.set(key, [cid, state, n]);
  }
}

async function _storeFile(c: pg.PoolClient, f: StoredFile): Promise<void> {
  const res = await exec(
    c,
    sql`INSERT INTO files (id, flock, record_type, record_id, field, filename, content_type, bytes, created)
        VALUES (${f.id}, ${f.flock}, ${f.recordType}, ${f.recordId}, ${encodeText(f.field)}, ${encodeText(f.filename)},
          ${encodeText(f.contentType)}, ${Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength)}, ${f.created})
        ON CONFLICT DO NOTHING`,
    "insert_file",
  );
  if (res.rowCount === 0) throw conflict("file exists", `file ${f.id} already exists`);
}
