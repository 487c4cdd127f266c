/**
 * @module bulk-io/import-records
 * `importRecords`: writes rows (bulk-io/read-rows) into a flock in batches. Each row is
 * checked as a create is (the type's schema, derived fields, record bounds); ids,
 * states, timestamps and versions in the row are kept (so an export re-imports to the same
 * records), a row without an id gets a new one. A row whose id is already stored is
 * skipped, or with `update` laid over the stored record as a PUT would. A bad row is
 * refused alone, with its line and reason; the good rows of a batch are written in one
 * transaction, all or none (a write that fails refuses every row of its batch). Every batch
 * is committed through the engine (`engine.writeMany`), so derived values (a membership's
 * plan name) are the API's; with `events`, each write carries its data event and queued
 * actions too.
 */
import {
  assertServedType,
  badRequest,
  derive,
  displayValueOf,
  checkRecordLimits,
  formatTimestamp,
  isRecordId,
  isRecordsError,
  notFound,
  parseTimestamp,
  personRowData,
  planUpdate,
  updateWrite,
  validateInput,
  withoutGeneratedNames,
  type RecordEngine,
  type RecordWrite,
  type StoredRecord,
} from "@records-service/core";
import { FLAG_DEFAULTS } from "../config/schema.js";
import { SERVICE_WRITTEN_TYPES } from "../routes/records.js";
import { rowParts } from "./envelope-line.js";
import type { ImportRow } from "./read-rows.js";

/** Options of `importRecords`. */
export interface ImportOptions {
  /** The type of rows that name none; a row naming another type is refused. Default "person". */
  type?: string;
  /** Record each write's data event and queue its triggers' actions. Default false. */
  events?: boolean;
  /** Update records whose id is stored (else they are skipped). Default false. */
  update?: boolean;
  /** Rows per transaction. Default config/schema `FLAG_DEFAULTS.importBatch` (5,000: why there). */
  batchSize?: number;
  /** Told after every batch. */
  onProgress?(progress: ImportProgress): void;
  /** Told of every refused row. */
  onRefused?(line: number, reason: string): void;
}

/** Counts so far. */
export interface ImportProgress {
  /** Rows read (refused ones too). */
  read: number;
  created: number;
  updated: number;
  /** Rows whose id was stored already (and, with `update`, rows that changed nothing). */
  skipped: number;
  refused: number;
}

/** What an import did: the counts and the first refused rows. */
export interface ImportReport extends ImportProgress {
  /** The first 100 refused rows, by line. */
  refusals: { line: number; reason: string }[];
  /**
   * With `events`: data events recorded for which no active trigger queued an action, by
   * event (trigger) name, so the caller can warn that nothing will be delivered for them.
   */
  unqueued: Record<string, number>;
}


/**
 * Imports `rows` into `flock`. Throws 404 for an unknown flock or a type the engine does not
 * serve and 400 for a type only the service writes, before reading anything; every row-level
 * problem is a refusal in the report instead.
 *
 * @example
 * const report = await importRecords(engine, "demo", readNdjson(createReadStream("people.ndjson")), { type: "person" });
 * report.refused // 0
 */
export async function importRecords(
  engine: RecordEngine,
  flock: string,
  rows: AsyncIterable<ImportRow> | Iterable<ImportRow>,
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const ctx = engine.context;
  const defaultType = opts.type ?? "person";
  if (!(await ctx.storage.getFlock(flock))) throw notFound("unknown flock", `flock '${flock}' does not exist`);
  _checkType(ctx.resourceTypes, defaultType);
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? FLAG_DEFAULTS.importBatch));
  const report: ImportReport = { read: 0, created: 0, updated: 0, skipped: 0, refused: 0, refusals: [], unqueued: {} };
  const refuse = (line: number, reason: string) => {
    report.refused += 1;
    if (report.refusals.length < 100) report.refusals.push({ line, reason });
    opts.onRefused?.(line, reason);
  };
  const seen = new Map<string, number>(); // id -> line, for ids given twice
  let batch: _Planned[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const planned = batch;
    batch = [];
    const stored = await _storedOf(engine, flock, planned);
    const now = formatTimestamp(ctx.clock.now());
    const writes: RecordWrite[] = [];
    const written: _Planned[] = [];
    let created = 0;
    let updated = 0;
    for (const p of planned) {
      const before = stored.get(p.record.id);
      if (!before) {
        writes.push({ kind: "insert", record: p.record });
        written.push(p);
        created += 1;
        continue;
      }
      if (before.type !== p.record.type) {
        refuse(p.line, `id ${p.record.id} is a ${before.type} record, not a ${p.record.type}`);
        continue;
      }
      if (!opts.update) {
        report.skipped += 1;
        continue;
      }
      try {
        const { next, changed } = planUpdate(before, _input(p), now);
        if (Object.keys(changed).length === 0) {
          report.skipped += 1;
          continue;
        }
        writes.push(updateWrite(before, next));
        written.push(p);
        updated += 1;
      } catch (e) {
        refuse(p.line, _reason(e));
      }
    }
    if (writes.length > 0) {
      try {
        const result = await engine.writeMany({ records: writes }, { events: opts.events === true });
        if (opts.events) _countUnqueued(result, report.unqueued);
        report.created += created;
        report.updated += updated;
      } catch (e) {
        // All or nothing: the batch's rows are refused together, with the write's reason.
        const reason = `batch not written: ${_reason(e)}`;
        for (const p of written) refuse(p.line, reason);
      }
    }
    opts.onProgress?.(_progress(report));
  };

  const nowText = () => formatTimestamp(ctx.clock.now());
  for await (const row of rows) {
    report.read += 1;
    if (row.error !== undefined) {
      refuse(row.line, row.error);
      continue;
    }
    let planned: _Planned;
    try {
      planned = _plan(row, flock, defaultType, opts.type !== undefined, ctx, nowText);
    } catch (e) {
      refuse(row.line, _reason(e));
      continue;
    }
    const first = seen.get(planned.record.id);
    if (first !== undefined) {
      refuse(row.line, `id ${planned.record.id} is given on line ${first} already`);
      continue;
    }
    seen.set(planned.record.id, row.line);
    batch.push(planned);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return report;
}

// --- internal ---

/** A checked row: the record to insert, and the row's fields (laid over a stored record with `update`). */
interface _Planned {
  line: number;
  record: StoredRecord;
  given: Record<string, unknown>;
}

/** Adds the committed events that queued no job to `into`, by name. */
function _countUnqueued(result: { events: readonly StoredRecord[]; jobs: readonly { dataEventId: string }[] }, into: Record<string, number>): void {
  const queued = new Set(result.jobs.map((j) => j.dataEventId));
  for (const e of result.events) {
    if (queued.has(e.id) || typeof e.data.name !== "string") continue;
    into[e.data.name] = (into[e.data.name] ?? 0) + 1;
  }
}

function _progress(r: ImportReport): ImportProgress {
  return { read: r.read, created: r.created, updated: r.updated, skipped: r.skipped, refused: r.refused };
}

function _checkType(served: RecordEngine["context"]["resourceTypes"], type: string): void {
  if (SERVICE_WRITTEN_TYPES.includes(type)) throw badRequest("read-only resource type", `${type} records are written by the service, not imported`);
  assertServedType(served, type);
}

/** The row checked and turned into the record a create would store (keeping what the row gives). */
function _plan(row: ImportRow, flock: string, defaultType: string, typeFixed: boolean, ctx: RecordEngine["context"], nowText: () => string): _Planned {
  const parts = rowParts(row.value);
  if (!parts) throw badRequest("invalid row", "expected a JSON object of fields, or an envelope with a data object");
  const type = parts.type === undefined ? defaultType : parts.type;
  if (typeof type !== "string") throw badRequest("invalid row", "type must be a string");
  if (type !== defaultType) {
    if (typeFixed) throw badRequest("invalid row", `type ${JSON.stringify(type)} where --type is ${defaultType}`);
    _checkType(ctx.resourceTypes, type);
  }
  const id = parts.id === undefined ? ctx.ids() : parts.id;
  if (typeof id !== "string" || !isRecordId(id)) throw badRequest("invalid row", `id ${JSON.stringify(id)} is not a record id (24 lower-case hexadecimal characters)`);
  const state = parts.state ?? "updated";
  if (state !== "updated" && state !== "deleted") throw badRequest("invalid row", `state ${JSON.stringify(state)}: expected updated or deleted`);
  const created = parts.created === undefined ? nowText() : _timestamp(parts.created, "created");
  const lastUpdated = parts.last_updated === undefined ? created : _timestamp(parts.last_updated, "last_updated");
  const version = parts.version ?? 1;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) throw badRequest("invalid row", `version ${JSON.stringify(version)}: expected a positive integer`);
  // Generated fields (a person's formatted name...) are derived again, not taken from the row.
  const { data, displayValue } = type === "person" ? _person(parts.data) : derive(type, validateInput(type, parts.data));
  checkRecordLimits(type, data);
  return { line: row.line, record: { id, flock, type, state, data, displayValue, created, lastUpdated, version }, given: parts.data };
}

function _person(row: Record<string, unknown>): { data: Record<string, unknown>; displayValue: string } {
  const data = personRowData(row);
  return { data, displayValue: displayValueOf("person", data) };
}

/** The fields a row lays over a stored record (`update`): a person's generated names left out, as a create leaves them. */
function _input(p: _Planned): Record<string, unknown> {
  return p.record.type === "person" ? withoutGeneratedNames(p.given) : p.given;
}

/** The form `formatTimestamp` writes (for the years 1000-9999 that `parseTimestamp` reads). */
const _STORED_TIMESTAMP_RE = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}000$/;

/** A timestamp in the stored form (YYYY-MM-DDTHH:MM:SS.ffffff), kept as written. */
function _timestamp(value: unknown, what: string): string {
  if (typeof value !== "string") throw badRequest("invalid row", `${what} must be a timestamp string`);
  // `formatTimestamp(parseTimestamp(value)) === value` without writing the text again: what
  // parses (ranges, the calendar) and has the written form (four digits of year from 1000,
  // milliseconds) is what formatting gives back.
  if (!_STORED_TIMESTAMP_RE.test(value) || !parseTimestamp(value)) throw badRequest("invalid row", `${what} ${JSON.stringify(value.slice(0, 40))} is not a timestamp (YYYY-MM-DDTHH:MM:SS.ffffff)`);
  return value;
}

/** The stored records of the planned ids in `flock`, of any type (ids are unique across types). */
async function _storedOf(engine: RecordEngine, flock: string, planned: readonly _Planned[]): Promise<Map<string, StoredRecord>> {
  const types = [...new Set(planned.map((p) => p.record.type))];
  const keys = planned.flatMap((p) => types.map((type) => ({ type, id: p.record.id })));
  const out = new Map<string, StoredRecord>();
  for (const r of await engine.getMany(flock, keys)) out.set(r.id, r);
  return out;
}

function _reason(e: unknown): string {
  if (isRecordsError(e)) return e.detail === e.message ? e.message : `${e.message}: ${e.detail}`;
  return e instanceof Error ? e.message : String(e);
}
