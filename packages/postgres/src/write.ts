/**
 * @module write
 * `apply(changes)` inside one transaction: records with their optimistic version check
 * (the row is locked with `FOR UPDATE`, so of concurrent writers of one version exactly
 * one wins and the others see the new version and get `conflict`), `record_values`,
 * `record_refs`, the search index, `collection_counts` and `ticket_stock` kept in step, files stored or removed, outbox jobs
 * queued. Consecutive inserts go in one multi-row statement (up to `INSERT_CHUNK`), so a
 * large change set costs a few round trips, not one per record. Index rows are gathered
 * over the change set and written at the end by one statement (data-modifying CTEs): the
 * last run of inserts, whose index rows find their new `rid` by id in its RETURNING, the
 * index rows, the kept counts and the change log. The kept counts are moved before the
 * change heads (the heads' CTE waits on the counts' one), in a fixed order, so the hot rows
 * are locked only for the commit and two writers never wait on each other in a cycle; the
 * change log's per-flock head lock orders ids by commit (changes.ts). A create is thus
 * BEGIN, the write rules, this statement and COMMIT.
 */
import {
  changeOf,
  conflict,
  dedupeKeyText,
  TICKET_STOCK_FIELDS,
  TICKET_TYPE,
  TicketStockDeltas,
  ticketStockOf,
  type Attribution,
  type ChangeSet,
  type PendingChange,
  type RecordState,
  type RecordWrite,
  type StoredFile,
  type StoredRecord,
} from "@records-service/core";
import { refTargets, valueRows } from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import type { WriteIds } from "./catalog.js";
import { changeLogInserts } from "./changes.js";
import { exec } from "./exec.js";
import { writeRules, type WriteRules } from "./field-indexes.js";
import { insertJob } from "./outbox.js";
import { searchDoc } from "./search.js";
import { encodeText } from "./text-codec.js";
import { addTicketStock } from "./ticket-stock.js";
import { valueColumns, type ValueInsert } from "./values.js";

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
  for (const f of changes.files ?? []) await _storeFile(c, f);
  for (const owner of changes.removeFilesOf ?? []) {
    await exec(
      c,
      sql`DELETE FROM files WHERE flock = ${owner.flock} AND record_type = ${owner.type} AND record_id = ${owner.id}`,
      "remove_files_of",
    );
  }
  for (const job of changes.outbox ?? []) await insertJob(c, job);
  // The last run of inserts, the index rows, the kept counts and the change log: one statement.
  await w.flush(run, changes.attribution);
}

/** Most records one INSERT statement writes (its parameters are eight arrays of this length). */
export const INSERT_CHUNK = 1000;

// --- internal ---

/** A record's key in the gathered rows: its `rid`, or its id while it is in the last run (inserted by the flush). */
type _Key = number | string;

class _Writer {
  /** Index rows to insert, by record and fid (an update later in the set replaces a field's rows). */
  private readonly values = new Map<_Key, Map<number, ValueInsert<_Key>[]>>();
  private readonly refs = new Map<_Key, string[]>();
  /** Search rows to write by record (null: none; an updated record's old row is gone already). */
  private readonly search = new Map<_Key, string | null>();
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
    const run = await this.run(records);
    const { rows } = await exec<{ id: string; rid: string }>(this.c, sql`${_insertRecords(run.columns)} RETURNING id, rid`, "insert_records");
    const rids = _inserted(records, rows);
    for (const [i, r] of records.entries()) await this.gather(rids[i]!, run.cids[i]!, r, run.texts[i]!);
    return [];
  }

  /** The collection ids, data texts and insert columns of a run of inserts. */
  private async run(records: readonly StoredRecord[]): Promise<{ cids: number[]; texts: string[]; columns: SQL }> {
    const cids: number[] = [];
    for (const r of records) cids.push(await this.ids.ensureCollection(r.flock, r.type));
    const p = sql.param;
    const col = <T>(f: (r: StoredRecord) => T) => p(records.map(f));
    const texts = records.map((r) => JSON.stringify(r.data));
    const columns = sql`${p(cids)}::int[], ${col((r) => r.id)}::text[], ${col((r) => r.state)}::text[],
            ${p(texts)}::text[], ${col((r) => encodeText(r.displayValue))}::text[],
            ${col((r) => r.created)}::text[], ${col((r) => r.lastUpdated)}::text[], ${col((r) => r.version)}::int[],
            ${col(dedupeKeyText)}::text[]`;
    return { cids, texts, columns };
  }

  /** Gathers an inserted record's index rows, count, stock and change. */
  private async gather(key: _Key, cid: number, r: StoredRecord, text: string): Promise<void> {
    // Only the fields the registry keeps, unless records_entries cannot read this data.
    const keeps = this.rules.storesAll(text) ? () => true : this.rules.keeps(r.flock, r.type);
    for (const [field, value] of Object.entries(r.data)) if (keeps(field)) await this.setValues(key, cid, field, value);
    this.refs.set(key, refTargets(r));
    this.search.set(key, searchDoc(r) ?? null);
    this.count(cid, r.state, 1);
    this.stock.add(ticketStockOf(r));
    this.logged.push(changeOf({ kind: "insert", record: r }));
  }

  /**
   * Locks the record, checks its version and rewrites it, with the index rows of its changed
   * fields, its references and its search row removed, in one statement (the removals join
   * the UPDATE's row, so a failed check changes nothing; the caller's transaction rolls back
   * on the conflict anyway). The new rows are gathered for `flush`.
   */
  async update(write: Extract<RecordWrite, { kind: "update" }>): Promise<void> {
    const { record: r, expectedVersion } = write;
    const cid = await this.ids.collectionId(r.flock, r.type);
    if (cid === undefined) throw conflict("record not found", `${r.type} ${r.id} does not exist in flock ${r.flock}`);
    // Rewrite the index rows of the changed fields (as the engine decided them) only: state
    // changes and touches rewrite none.
    const change = changeOf(write);
    const anyChanged = change.fields.length > 0;
    const text = JSON.stringify(r.data);
    // Data records_entries cannot read keeps every field's entries: all are rewritten (the
    // record may have had none of the fields the registry does not keep).
    const all = anyChanged && this.rules.storesAll(text);
    const rewritten = [...(all ? new Set([...change.fields, ...Object.keys(r.data)]) : change.fields)];
    const ticket = r.type === TICKET_TYPE;
    // A ticket's stored data too: what it took from the stock (read under the row lock).
    const columns = sql.raw(ticket ? ", data" : "");
    const { rows } = await exec<{ rid: string; state: string; version: number; data?: string }>(
      this.c,
      sql`WITH old AS (SELECT rid, state, version${columns} FROM records WHERE cid = ${cid} AND id = ${r.id} FOR UPDATE),
          upd AS (UPDATE records SET state = ${r.state}, data = ${text}, display_value = ${encodeText(r.displayValue)},
              created = ${r.created}, last_updated = ${r.lastUpdated}, version = ${r.version}, dedupe_key = ${dedupeKeyText(r)}
            FROM old WHERE records.rid = old.rid AND old.version = ${expectedVersion} RETURNING records.rid),
          -- Any old entries of the rewritten fields go (also a dropped field's leftovers).
          dv AS (DELETE FROM record_values v USING upd, fields f
            WHERE v.rid = upd.rid AND f.cid = ${cid} AND f.name = ANY(${sql.param(rewritten)}::text[]) AND v.fid = f.fid),
          dr AS (DELETE FROM record_refs x USING upd WHERE x.rid = upd.rid AND ${anyChanged}::boolean),
          ds AS (DELETE FROM record_search s USING upd, old WHERE s.rid = upd.rid AND (${anyChanged}::boolean OR old.state <> ${r.state}))
          SELECT rid, state, version${columns} FROM old`,
      ticket ? "update_ticket" : "update_record",
    );
    const old = rows[0];
    if (!old) throw conflict("record not found", `${r.type} ${r.id} does not exist in flock ${r.flock}`);
    if (old.version !== expectedVersion) {
      throw conflict(
        "version conflict",
        `${r.type} ${r.id} is at version ${old.version}, not ${expectedVersion}: it changed since it was read`,
      );
    }
    const rid = Number(old.rid);
    this.logged.push(change);
    if (old.data !== undefined && (old.state !== r.state || change.fields.some((f) => TICKET_STOCK_FIELDS.includes(f)))) {
      this.stock.sub(ticketStockOf({ flock: r.flock, type: r.type, state: old.state as RecordState, data: JSON.parse(old.data) as Record<string, unknown> }));
      this.stock.add(ticketStockOf(r));
    }
    const keeps = all ? () => true : this.rules.keeps(r.flock, r.type);
    const gathered = this.values.get(rid);
    for (const field of rewritten) {
      // Rows gathered for this record earlier in the set are replaced too.
      if (gathered) {
        const fid = await this.ids.fieldId(cid, field);
        if (fid !== undefined) gathered.delete(fid);
      }
      // New entries only where the index is kept.
      if (keeps(field)) await this.setValues(rid, cid, field, r.data[field]);
    }
    if (anyChanged) this.refs.set(rid, refTargets(r));
    if (anyChanged || old.state !== r.state) this.search.set(rid, searchDoc(r) ?? null);
    if (old.state !== r.state) {
      this.count(cid, old.state, -1);
      this.count(cid, r.state, 1);
    }
  }


  /**
   * Inserts `last` (the set's last run of inserts) and the gathered index rows, moves the
   * kept counts and logs the changes, in one statement after the ticket stock's own (only
   * when there is any). Index rows of `last` find their
   * `rid` by id in the insert's RETURNING; those of a record that was not inserted (its id
   * exists, or repeats) are dropped, and the set fails as a conflict.
   */
  async flush(last: readonly StoredRecord[], attribution: Attribution | undefined): Promise<void> {
    const run = await this.run(last);
    for (const [i, r] of last.entries()) await this.gather(r.id, run.cids[i]!, r, run.texts[i]!);
    await addTicketStock(this.c, this.stock.rows());
    const values = [...this.values.values()].flatMap((byField) => [...byField.values()].flat());
    const refs = [...this.refs].flatMap(([key, targets]) => targets.map((t) => [key, encodeText(t)] as const));
    const search = [...this.search].filter((e): e is [_Key, string] => e[1] !== null);
    // Sorted, so concurrent writers lock count rows in the same order (no deadlock).
    const counts = [...this.counts.values()].filter((d) => d[2] !== 0).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    if (last.length + values.length + refs.length + search.length + counts.length + this.logged.length === 0) return;
    const p = sql.param;
    const rid = <T>(rows: readonly T[], key: (row: T) => _Key) => sql`${p(rows.map((r) => _ridOf(key(r))))}::bigint[], ${p(rows.map((r) => _idOf(key(r))))}::text[]`;
    const { rows } = await exec<{ id: string; rid: string }>(
      this.c,
      sql`WITH ins AS (${_insertRecords(run.columns)} RETURNING id, rid),
          val AS (INSERT INTO record_values (rid, fid, kind, text, text_long, folded, folded_long, num)
            SELECT coalesce(u.rid, i.rid), u.fid, u.kind, u.text, u.text_long, u.folded, u.folded_long, u.num
            FROM unnest(${rid(values, (v) => v.rid)}, ${valueColumns(values)})
              AS u(rid, id, fid, kind, text, text_long, folded, folded_long, num)
            LEFT JOIN ins i ON i.id = u.id WHERE coalesce(u.rid, i.rid) IS NOT NULL),
          ref AS (INSERT INTO record_refs (target, rid)
            SELECT u.target, coalesce(u.rid, i.rid) FROM unnest(${rid(refs, (r) => r[0])}, ${p(refs.map((r) => r[1]))}::text[]) AS u(rid, id, target)
            LEFT JOIN ins i ON i.id = u.id WHERE coalesce(u.rid, i.rid) IS NOT NULL),
          srch AS (INSERT INTO record_search (rid, doc)
            SELECT coalesce(u.rid, i.rid), u.doc::tsvector FROM unnest(${rid(search, (e) => e[0])}, ${p(search.map((e) => e[1]))}::text[]) AS u(rid, id, doc)
            LEFT JOIN ins i ON i.id = u.id WHERE coalesce(u.rid, i.rid) IS NOT NULL),
          counted AS (INSERT INTO collection_counts (cid, state, n)
            SELECT * FROM unnest(${p(counts.map((d) => d[0]))}::int[], ${p(counts.map((d) => d[1]))}::text[], ${p(counts.map((d) => d[2]))}::int[])
            ON CONFLICT (cid, state) DO UPDATE SET n = collection_counts.n + excluded.n RETURNING 1),
          ${changeLogInserts(this.logged, attribution, sql`(SELECT count(*) FROM counted) >= 0`)}
          SELECT id, rid FROM ins`,
      "flush_writes",
    );
    _inserted(last, rows);
  }

  private async setValues(rid: _Key, cid: number, field: string, value: unknown): Promise<void> {
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

/** `INSERT INTO records` of a run's columns (see `_Writer.run`), in the run's order; ids are unique across the store. */
function _insertRecords(columns: SQL): SQL {
  // ORDER BY ord: rids are drawn in input order, which is the list order.
  return sql`INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version, dedupe_key)
          SELECT u.cid, u.id, u.state, u.data, u.display_value, u.created, u.last_updated, u.version, u.dedupe_key
          FROM unnest(${columns}) WITH ORDINALITY AS u(cid, id, state, data, display_value, created, last_updated, version, dedupe_key, ord)
          ORDER BY u.ord
          ON CONFLICT (id) DO NOTHING`;
}

/** The `rid`s of `records` from the insert's RETURNING rows; a record not inserted (it existed, or repeats) is a conflict. */
function _inserted(records: readonly StoredRecord[], rows: readonly { id: string; rid: string }[]): number[] {
  const rids = new Map(rows.map((row) => [row.id, Number(row.rid)]));
  return records.map((r) => {
    const rid = rids.get(r.id);
    // Not inserted (it existed), or inserted by an earlier entry of this run.
    if (rid === undefined) throw conflict("record exists", `a record with id '${r.id}' exists`);
    rids.delete(r.id);
    return rid;
  });
}

const _ridOf = (key: _Key): number | null => (typeof key === "number" ? key : null);
const _idOf = (key: _Key): string | null => (typeof key === "string" ? key : null);

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
