/**
 * @module field-indexes
 * The value index's registry on SQLite (`field_indexes`, core's `IndexRegistry`): its rows,
 * the registry as writes read it (inside their transaction) and as reads read it (once per
 * change generation), and the back-fill and removal steps. Which field is written and read
 * is core's rule (`writesIndex`, `readsIndex`); here it is only run.
 */
import { dedupeKeyText, EVERY_FLOCK, FIELD_NAME_RE, isIndexedByDefault, readsIndex, rulingRow, writesIndex, type FieldIndexRow, type FieldIndexSource, type FieldIndexState, type IndexRegistry } from "@records-service/core";
import { ENTRIES, entriesOf, valueRows, type FieldSource } from "@records-service/sql";
import type Database from "better-sqlite3";
import type { Catalog } from "./catalog.js";

/** Records one step of a back-fill or removal walks at most (one short write transaction). */
const FIELD_INDEX_STEP = 500;

/** `IndexRegistry`'s members, run synchronously (the Storage wrapper makes them async). */
type _Sync<T> = { [K in keyof T]: T[K] extends (...a: infer A) => Promise<infer R> ? (...a: A) => R : never };

/** The registry of one connection. */
export interface FieldIndexes extends _Sync<IndexRegistry> {
  /** Whether writes keep `field`'s entries in `flock`/`type`, read now (call inside the write's transaction). */
  writes(flock: string, type: string): (field: string) => boolean;
  /** Where reads find `field`'s entries in collection `cid` (read once per change generation). */
  source(cid: number, flock: string, type: string): (field: string) => FieldSource | undefined;
}

/** The registry over one connection; `generation` is the connection's change generation. */
export function createFieldIndexes(client: Database.Database, catalog: Catalog, generation?: () => number): FieldIndexes {
  const selOfType = client.prepare<[string, string], _Row>(`SELECT ${_COLUMNS} FROM field_indexes WHERE type = ? AND flock IN (?, '${EVERY_FLOCK}')`);
  const selAllOfType = client.prepare<[string], _Row>(`SELECT ${_COLUMNS} FROM field_indexes WHERE type = ?`);
  const selOne = client.prepare<[string, string, string], _Row>(`SELECT ${_COLUMNS} FROM field_indexes WHERE flock = ? AND type = ? AND field = ?`);
  // With their progress, in one statement (one count per unfinished row, none per finished one).
  const viewOne = client.prepare<[string, string, string], _Row & { progress: number }>(
    `SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock = ? AND type = ? AND field = ?`,
  );
  const viewsOfFlock = client.prepare<[string], _Row & { progress: number }>(
    `SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock IN (?, '${EVERY_FLOCK}') ORDER BY type, field, flock`,
  );
  // One type's only: the progress of another type's rows is not counted for nothing.
  const viewsOfType = client.prepare<[string, string], _Row & { progress: number }>(
    `SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock IN (?, '${EVERY_FLOCK}') AND type = ? ORDER BY field, flock`,
  );
  const upsert = client.prepare<[string, string, string, FieldIndexState, FieldIndexSource]>(
    `INSERT INTO field_indexes (flock, type, field, state, source, cursor, done) VALUES (?, ?, ?, ?, ?, NULL, 0)
     ON CONFLICT (flock, type, field) DO UPDATE SET state = excluded.state, source = excluded.source, cursor = NULL, done = 0`,
  );
  const setSource = client.prepare<[FieldIndexSource, string, string, string]>("UPDATE field_indexes SET source = ? WHERE flock = ? AND type = ? AND field = ?");
  const del = client.prepare<[string, string, string]>("DELETE FROM field_indexes WHERE flock = ? AND type = ? AND field = ?");
  const restart = client.prepare<[string, string]>(
    `UPDATE field_indexes SET cursor = NULL, done = 0, state = CASE state WHEN 'ready' THEN 'building' ELSE state END
     WHERE flock = '${EVERY_FLOCK}' AND type = ? AND field = ?`,
  );
  const selUnfinished = client.prepare<[], _Row>(`SELECT ${_COLUMNS} FROM field_indexes WHERE done = 0 ORDER BY type, field, flock`);
  const moveTo = client.prepare<[number | null, number, FieldIndexState, string, string, string]>(
    "UPDATE field_indexes SET cursor = ?, done = ?, state = ? WHERE flock = ? AND type = ? AND field = ?",
  );
  const cidsOfFlock = client.prepare<[string, string], { cid: number }>("SELECT cid FROM collections WHERE flock = ? AND type = ?");
  // An every-flock row walks the collections of flocks without a row of their own for the field.
  // Plain `?`s: better-sqlite3 refuses positional values for numbered ones (`?1`).
  const cidsOfEvery = client.prepare<[string, string], { cid: number }>(
    `SELECT c.cid FROM collections c WHERE c.type = ? AND NOT EXISTS
       (SELECT 1 FROM field_indexes f WHERE f.flock = c.flock AND f.type = c.type AND f.field = ?)`,
  );
  const delValues = client.prepare<[number, number]>("DELETE FROM record_values WHERE rid = ? AND fid = ?");
  const insValue = client.prepare("INSERT OR IGNORE INTO record_values (rid, fid, kind, text, folded, num) VALUES (?, ?, ?, ?, ?, ?)");
  const pick = client.prepare<[string, string], { v: string | null }>("SELECT ? -> ? AS v");
  // The collections as one JSON array parameter: one statement whatever their number.
  const walk = client.prepare<[string, number, number], { rid: number; cid: number; data: string }>(
    "SELECT rid, cid, data FROM records WHERE cid IN (SELECT value FROM json_each(?)) AND rid > ? ORDER BY rid LIMIT ?",
  );
  /** The field's value in a record's data JSON (SQLite picks a FIELD_NAME_RE name; JS any other). */
  const valueIn = (data: string, field: string): unknown => {
    if (!FIELD_NAME_RE.test(field)) return (JSON.parse(data) as Record<string, unknown>)[field];
    const json = pick.get(data, `$."${field}"`)?.v;
    return json === null || json === undefined ? undefined : JSON.parse(json);
  };

  /** The row with its progress (`_PROGRESS`). */
  const toRow = (r: _Row & { progress: number }): FieldIndexRow => ({ flock: r.flock, type: r.type, field: r.field, state: r.state, source: r.source, progress: r.progress });
  const _cidsOf = (r: Pick<_Row, "flock" | "type" | "field">): number[] =>
    (r.flock === EVERY_FLOCK ? cidsOfEvery.all(r.type, r.field) : cidsOfFlock.all(r.flock, r.type)).map((c) => c.cid);

  // The rows of each type as reads see them, kept while the change generation stays.
  const kept = new Map<string, FieldIndexRow[]>();
  let keptAt = -1;
  const rowsForReads = (type: string): FieldIndexRow[] => {
    const g = generation?.();
    if (g !== keptAt) {
      kept.clear();
      keptAt = g ?? -1;
    }
    let rows = kept.get(type);
    if (!rows) {
      rows = selAllOfType.all(type).map(_plain);
      if (g !== undefined) kept.set(type, rows);
    }
    return rows;
  };

  /** One step of one unfinished row: up to `limit` records, in one transaction. */
  const stepRow = client.transaction((r: _Row, limit: number): { walked: number; finished: boolean } => {
    const now = selOne.get(r.flock, r.type, r.field);
    if (!now || now.done) return { walked: 0, finished: true }; // another process finished or removed it meanwhile
    const building = now.state === "building";
    // A removal needs only the collections where the field has an id (some record had entries).
    const fids = new Map(_cidsOf(now).map((cid) => [cid, building ? catalog.ensureField(cid, now.field) : catalog.fieldId(cid, now.field)] as const));
    const cids = [...fids].filter(([, fid]) => fid !== undefined).map(([cid]) => cid);
    const rows = cids.length === 0 ? [] : walk.all(JSON.stringify(cids), now.cursor ?? 0, limit);
    for (const row of rows) {
      const fid = fids.get(row.cid)!;
      delValues.run(row.rid, fid);
      if (!building) continue;
      for (const v of valueRows(valueIn(row.data, now.field))) insValue.run(row.rid, fid, v.kind, v.text, v.folded, v.num);
    }
    const finished = rows.length < limit;
    // A finished removal of a migration's field, or a finished rebuild of a default: the defaults rule.
    if (finished && ((now.state === "dropped" && now.source === "migration") || (building && now.source === "default"))) del.run(now.flock, now.type, now.field);
    else moveTo.run(rows.at(-1)?.rid ?? now.cursor, finished ? 1 : 0, finished && building ? "ready" : now.state, now.flock, now.type, now.field);
    return { walked: Math.max(rows.length, 1), finished };
  });

  return {
    writes(flock, type) {
      const rows = selOfType.all(type, flock).map(_plain);
      return (field) => writesIndex(type, field, rulingRow(rows, flock, field));
    },

    source(cid, flock, type) {
      const rows = rowsForReads(type);
      return (field) => (readsIndex(type, field, rulingRow(rows, flock, field)) ? catalog.fieldId(cid, field) : { scan: field });
    },

    listFieldIndexes(flock, type) {
      return (type === undefined ? viewsOfFlock.all(flock) : viewsOfType.all(flock, type)).map(toRow);
    },

    setFieldIndex(flock, type, field, wish, source) {
      return client
        .transaction(() => {
          const now = selOne.get(flock, type, field);
          const same = now && (wish === "drop" ? now.state === "dropped" : now.state !== "dropped");
          if (now && same) {
            if (now.source === "demand" && source !== "demand") setSource.run(source, flock, type, field);
          } else {
            upsert.run(flock, type, field, wish === "drop" ? "dropped" : "building", source);
          }
          return toRow(viewOne.get(flock, type, field)!);
        })
        .immediate();
    },

    removeFieldIndex(flock, type, field) {
      return client
        .transaction(() => {
          const now = selOne.get(flock, type, field);
          if (now && now.state !== "ready" && isIndexedByDefault(type, field)) {
            // Not all its entries are there: built first (a default row goes once built).
            if (now.state === "dropped") upsert.run(flock, type, field, "building", "default");
            else setSource.run("default", flock, type, field);
            return true;
          }
          const removed = del.run(flock, type, field).changes > 0;
          // The every-flock row now rules this flock's collection too, which its walk skipped.
          if (removed && flock !== EVERY_FLOCK) restart.run(type, field);
          return removed;
        })
        .immediate();
    },

    stepFieldIndexes(limit) {
      let walked = 0;
      // Each step is its own transaction of at most FIELD_INDEX_STEP records, so a write
      // never waits long behind a back-fill.
      for (const r of selUnfinished.all()) {
        while (walked < limit) {
          const step = stepRow.immediate(r, Math.min(FIELD_INDEX_STEP, limit - walked));
          walked += step.walked;
          if (step.finished) break;
        }
      }
      return walked;
    },
  };
}

/** Name of the SQL function `records_indexed_by_default(type, field)` (core's `isIndexedByDefault`), which migration 0012 reads. */
const INDEXED_BY_DEFAULT = "records_indexed_by_default";

/** Name of the SQL function `records_dedupe_key(type, data)` (core's `dedupeKeyText` of a stored record), which migration 0014 reads. */
const DEDUPE_KEY = "records_dedupe_key";

/**
 * Registers on a connection what the registry's SQL and the migrations call: the table
 * function `records_entries` (a scanned field's entries, see `ENTRIES`),
 * `records_indexed_by_default` and `records_dedupe_key`.
 */
export function registerIndexFunctions(client: Database.Database): void {
  client.function(DEDUPE_KEY, { deterministic: true }, (type: unknown, data: unknown) =>
    dedupeKeyText({ type: String(type), data: JSON.parse(String(data)) as Record<string, unknown> }),
  );
  client.table(ENTRIES, {
    columns: ["kind", "text", "folded", "num"],
    parameters: ["value", "name"],
    rows: function* (value: unknown, name: unknown) {
      yield* entriesOf(value, name);
    } as (...args: unknown[]) => Generator<Record<string, unknown>>,
  });
  client.function(INDEXED_BY_DEFAULT, { deterministic: true }, (type: unknown, field: unknown) => (isIndexedByDefault(String(type), String(field)) ? 1 : 0));
}

// --- internal ---

interface _Row {
  flock: string;
  type: string;
  field: string;
  state: FieldIndexState;
  source: FieldIndexSource;
  cursor: number | null;
  done: number;
}

const _COLUMNS = "flock, type, field, state, source, cursor, done";

function _plain(r: _Row): FieldIndexRow {
  return { flock: r.flock, type: r.type, field: r.field, state: r.state, source: r.source, progress: r.done ? 1 : 0 };
}

/**
 * A registry row `f`'s progress: 1 when done, 0 before its first step, else the share of
 * the records of the collections it walks (`_cidsOf`: an every-flock row skips flocks with a
 * row of their own) at or before its cursor.
 */
const _PROGRESS = `CASE WHEN f.done THEN 1.0 WHEN f.cursor IS NULL THEN 0.0 ELSE (
  SELECT coalesce(min(1.0, (count(*) FILTER (WHERE r.rid <= f.cursor)) * 1.0 / nullif(count(*), 0)), 0.0)
  FROM collections c JOIN records r ON r.cid = c.cid
  WHERE c.type = f.type AND (c.flock = f.flock OR (f.flock = '${EVERY_FLOCK}' AND NOT EXISTS
    (SELECT 1 FROM field_indexes o WHERE o.flock = c.flock AND o.type = c.type AND o.field = f.field)))) END`;
