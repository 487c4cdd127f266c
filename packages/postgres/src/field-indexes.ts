/**
 * @module field-indexes
 * The value index's registry on PostgreSQL (`field_indexes`, core's `IndexRegistry`): its
 * rows, the registry as writes read it (inside their transaction, under a shared advisory
 * lock per type that every change of the rows takes exclusively), as reads read it (once
 * per change generation), and the back-fill and removal steps. Which field is written and
 * read is core's rule (`writesIndex`, `readsIndex`); here it is only run. A field reads do
 * not take from the index is read from each record's data by the SQL function
 * `records_entries` (migration 0011); the records whose data that function cannot read
 * (`storesAllEntries`) keep every field's entries. docs/decisions.md, "The index registry
 * on PostgreSQL".
 */
import {
  compareFieldIndexRows,
  EVERY_FLOCK,
  isIndexedByDefault,
  readsIndex,
  rulingRow,
  writesIndex,
  type FieldIndexRow,
  type FieldIndexSource,
  type FieldIndexState,
  type IndexRegistry,
  type StoredRecord,
} from "@records-service/core";
import { valueRows, type FieldIdLookup } from "@records-service/sql";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Catalog, WriteIds } from "./catalog.js";
import { exec, transaction, type Conn } from "./exec.js";
import { insertValues, type ValueInsert } from "./values.js";

/**
 * The first key of the registry's advisory locks (the second is `hashtext(type)`); the SQL
 * function `records_write_rules` of migration 0011 holds the same number.
 */
const INDEX_LOCK_SPACE = 1919509624;

/**
 * True when the record whose data is the JSON text `json` keeps the entries of every field
 * (`records_entries` then reads them from `record_values`): the test of the SQL function
 * `records_stores_entries`, on the same text, with `pattern` read from
 * `records_entries_rule` (a regular expression both PostgreSQL and JavaScript read alike:
 * escapes, alternatives and a class of literal characters).
 *
 * @example
 * storesAllEntries('{"a":"x\\u0000"}', "\\\\u(0000|d[89a-f])") // true
 */
export function storesAllEntries(json: string, pattern: string): boolean {
  let re = _patterns.get(pattern);
  if (!re) _patterns.set(pattern, (re = new RegExp(pattern, "u")));
  return re.test(json);
}

/** What one write transaction read of the registry. */
export interface WriteRules {
  /** Whether writes keep `field`'s entries in `flock`/`type`. */
  keeps(flock: string, type: string): (field: string) => boolean;
  /** See `storesAllEntries`. */
  storesAll(json: string): boolean;
}

/**
 * Reads the registry for the records `records` writes, on `c` inside the write's
 * transaction, holding each of their types' advisory lock shared until it ends: a
 * registry change of those types waits for this transaction, so a back-fill never begins
 * while a write that read "not indexed" is still to commit.
 */
export async function writeRules(c: pg.PoolClient, records: readonly Pick<StoredRecord, "flock" | "type">[]): Promise<WriteRules> {
  if (records.length === 0) return { keeps: () => () => false, storesAll: () => false };
  // Sorted, so that two writers take the locks of several types in one order.
  const types = [...new Set(records.map((r) => r.type))].sort();
  const flocks = [...new Set(records.map((r) => r.flock))].sort();
  const { rows } = await exec<{ r: { pattern: string; rows: [string, string, string, FieldIndexState][] } }>(
    c,
    sql`SELECT records_write_rules(${sql.param(flocks)}::text[], ${sql.param(types)}::text[]) AS r`,
    "write_rules",
  );
  const { pattern, rows: found } = rows[0]!.r;
  // Only flock, type, field and state matter to `rulingRow` and `writesIndex`.
  const registry: FieldIndexRow[] = found.map(([flock, type, field, state]) => ({ flock, type, field, state, source: "operator", progress: 0 }));
  const memo = new Map<string, (field: string) => boolean>();
  return {
    keeps(flock, type) {
      const key = `${flock}\u0000${type}`;
      let fn = memo.get(key);
      if (!fn) {
        const ofType = registry.filter((r) => r.type === type);
        memo.set(key, (fn = (field) => writesIndex(type, field, rulingRow(ofType, flock, field))));
      }
      return fn;
    },
    storesAll: (json) => storesAllEntries(json, pattern),
  };
}

/**
 * Adds the `dropped` rows (source `migration`) of the fields an older version indexed that
 * the defaults do not want, when migration 0011 asked for it (`field_indexes_fill`), then
 * clears the request: core's `isIndexedByDefault` decides, which SQL cannot call. Run by
 * `migrateDatabase` under its lock. Returns how many rows it added.
 */
export async function fillFieldIndexes(c: pg.PoolClient): Promise<number> {
  if (Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM field_indexes_fill")).rows[0]!.n) === 0) return 0;
  await c.query("BEGIN");
  try {
    const { rows } = await c.query<{ flock: string; type: string; name: string }>(
      `SELECT c.flock, c.type, f.name FROM fields f JOIN collections c ON c.cid = f.cid
       WHERE EXISTS (SELECT 1 FROM record_values v WHERE v.fid = f.fid)`,
    );
    const dropped = rows.filter((r) => !isIndexedByDefault(r.type, r.name));
    await c.query(
      `INSERT INTO field_indexes (flock, type, field, state, source, cursor, done)
       SELECT u.flock, u.type, u.field, 'dropped', 'migration', NULL, false FROM unnest($1::text[], $2::text[], $3::text[]) AS u(flock, type, field)
       ON CONFLICT DO NOTHING`,
      [dropped.map((r) => r.flock), dropped.map((r) => r.type), dropped.map((r) => r.name)],
    );
    await c.query("DELETE FROM field_indexes_fill");
    await c.query("COMMIT");
    return dropped.length;
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  }
}

/** The registry over a pool: core's `IndexRegistry`, and where reads find each field. */
export interface FieldIndexes extends IndexRegistry {
  /**
   * Where reads find the fields `names` of collection `cid` (`flock`/`type`): the field id
   * when the index is complete (`readsIndex`), else `{ scan }`. The registry is read once
   * per change generation (`generation`, the change watch's), else at every call.
   */
  sources(cid: number, flock: string, type: string, names: Iterable<string>): Promise<FieldIdLookup>;
}

/** The registry over `pool`. */
export function createFieldIndexes(pool: pg.Pool, catalog: Catalog, generation?: () => number): FieldIndexes {
  const kept = new Map<string, FieldIndexRow[]>();
  let keptAt = -1;
  const rowsForReads = async (flock: string, type: string): Promise<FieldIndexRow[]> => {
    const g = generation?.();
    if (g !== undefined && g !== keptAt) {
      keptAt = g;
      kept.clear();
    }
    const key = `${flock}\u0000${type}`;
    const hit = kept.get(key);
    if (hit) return hit;
    const { rows } = await exec<_Row>(
      pool,
      sql`SELECT ${_COLUMNS} FROM field_indexes WHERE type = ${type} AND flock IN (${flock}, ${EVERY_FLOCK})`,
      "field_indexes_for_reads",
    );
    const plain = rows.map(_plain);
    // Kept only if nothing was written while it was read (a write moves the generation).
    if (g !== undefined && generation!() === g) kept.set(key, plain);
    return plain;
  };

  /** The row with its progress (`_PROGRESS`). */
  const toRow = (r: _Row & { progress: number }): FieldIndexRow => ({ flock: r.flock, type: r.type, field: r.field, state: r.state, source: r.source, progress: r.progress });

  /** One step of one unfinished row: up to `limit` records, in one transaction. */
  const stepRow = async (c: pg.PoolClient, ids: WriteIds, key: _Key, limit: number): Promise<number> => {
    // Shared: `checkFolding` changes the pattern (and rewrites entries) exclusively.
    await exec(c, sql`SELECT pg_advisory_xact_lock_shared(${INDEX_LOCK_SPACE}, 0)`, "field_index_rule_lock");
    const { rows: found } = await exec<_Row & { pattern: string }>(
      c,
      sql`SELECT ${_COLUMNS}, (SELECT pattern FROM records_entries_rule) AS pattern FROM field_indexes
          WHERE flock = ${key.flock} AND type = ${key.type} AND field = ${key.field} FOR UPDATE`,
      "field_index_lock",
    );
    const now = found[0];
    if (!now || now.done) return 0; // another process finished or removed it meanwhile
    const building = now.state === "building";
    // A removal needs only the collections where the field has an id (some record had entries).
    const fids = new Map<number, number>();
    for (const cid of await _cidsOf(c, now)) {
      const fid = building ? await ids.ensureField(cid, now.field) : await ids.fieldId(cid, now.field);
      if (fid !== undefined) fids.set(cid, fid);
    }
    // Under FOR SHARE: a write of one of these records waits, or is waited for, so its
    // entries and the ones written here never mix two versions of its data.
    const { rows } =
      fids.size === 0
        ? { rows: [] }
        : await exec<{ rid: string; cid: number; data: string }>(
            c,
            sql`SELECT rid, cid, data FROM records WHERE cid = ANY(${sql.param([...fids.keys()])}::int[]) AND rid > ${now.cursor ?? 0}
                ORDER BY rid LIMIT ${limit} FOR SHARE`,
            "field_index_walk",
          );
    // A removal keeps the entries of records whose data records_entries cannot read.
    const cleared = building ? rows : rows.filter((r) => !storesAllEntries(r.data, now.pattern));
    if (cleared.length > 0) {
      await exec(
        c,
        sql`DELETE FROM record_values v USING unnest(${sql.param(cleared.map((r) => Number(r.rid)))}::bigint[], ${sql.param(cleared.map((r) => fids.get(r.cid)!))}::int[]) AS u(rid, fid)
            WHERE v.rid = u.rid AND v.fid = u.fid`,
        "field_index_clear",
      );
    }
    if (building) {
      const values: ValueInsert[] = [];
      for (const row of rows) {
        const data = JSON.parse(row.data) as Record<string, unknown>;
        const value = Object.hasOwn(data, now.field) ? data[now.field] : undefined;
        for (const v of valueRows(value)) values.push({ rid: Number(row.rid), fid: fids.get(row.cid)!, ...v });
      }
      await insertValues(c, values);
    }
    const finished = rows.length < limit;
    // A finished removal of a migration's field, or a finished rebuild of a default: the defaults rule.
    if (finished && ((now.state === "dropped" && now.source === "migration") || (building && now.source === "default"))) {
      await exec(c, sql`DELETE FROM field_indexes WHERE flock = ${now.flock} AND type = ${now.type} AND field = ${now.field}`, "field_index_delete");
    } else {
      const cursor = rows.at(-1)?.rid ?? now.cursor;
      await exec(
        c,
        sql`UPDATE field_indexes SET cursor = ${cursor}, done = ${finished}, state = ${finished && building ? "ready" : now.state}
            WHERE flock = ${now.flock} AND type = ${now.type} AND field = ${now.field}`,
        "field_index_move",
      );
    }
    return Math.max(rows.length, 1);
  };

  /** Runs `fn` in a transaction holding `type`'s registry lock exclusively (see `writeRules`). */
  const changing = async <T>(type: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> =>
    transaction(pool, async (c) => {
      await exec(c, sql`SELECT pg_advisory_xact_lock(${INDEX_LOCK_SPACE}, hashtext(${type}))`, "field_index_type_lock");
      return fn(c);
    });

  const selOne = async (c: Conn, flock: string, type: string, field: string): Promise<_Row | undefined> =>
    (await exec<_Row>(c, sql`SELECT ${_COLUMNS} FROM field_indexes WHERE flock = ${flock} AND type = ${type} AND field = ${field}`, "field_index_one")).rows[0];

  return {
    async sources(cid, flock, type, names) {
      const [rows, fids] = await Promise.all([rowsForReads(flock, type), catalog.fieldLookup(pool, cid, names)]);
      return (field) => (readsIndex(type, field, rulingRow(rows, flock, field)) ? fids(field) : { scan: field });
    },

    async listFieldIndexes(flock, type) {
      // One statement, the progress of every row with it (a count per unfinished row, in SQL).
      const { rows } = await exec<_Row & { progress: number }>(
        pool,
        type === undefined
          ? sql`SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock IN (${flock}, ${EVERY_FLOCK})`
          : sql`SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock IN (${flock}, ${EVERY_FLOCK}) AND type = ${type}`,
        type === undefined ? "field_indexes_list" : "field_indexes_list_type",
      );
      return rows.map(toRow).sort(compareFieldIndexRows);
    },

    async setFieldIndex(flock, type, field, wish, source) {
      return changing(type, async (c) => {
        const now = await selOne(c, flock, type, field);
        const same = now && (wish === "drop" ? now.state === "dropped" : now.state !== "dropped");
        if (now && same) {
          if (now.source === "demand" && source !== "demand") {
            await exec(c, sql`UPDATE field_indexes SET source = ${source} WHERE flock = ${flock} AND type = ${type} AND field = ${field}`);
          }
        } else {
          const state: FieldIndexState = wish === "drop" ? "dropped" : "building";
          await exec(
            c,
            sql`INSERT INTO field_indexes (flock, type, field, state, source, cursor, done) VALUES (${flock}, ${type}, ${field}, ${state}, ${source}, NULL, false)
                ON CONFLICT (flock, type, field) DO UPDATE SET state = excluded.state, source = excluded.source, cursor = NULL, done = false`,
            "field_index_upsert",
          );
        }
        const { rows } = await exec<_Row & { progress: number }>(
          c,
          sql`SELECT ${_COLUMNS}, ${_PROGRESS} AS progress FROM field_indexes f WHERE flock = ${flock} AND type = ${type} AND field = ${field}`,
          "field_index_view",
        );
        return toRow(rows[0]!);
      });
    },

    async removeFieldIndex(flock, type, field) {
      return changing(type, async (c) => {
        const now = await selOne(c, flock, type, field);
        if (now && now.state !== "ready" && isIndexedByDefault(type, field)) {
          // Not all its entries are there: built first (a default row goes once built).
          // Two statements, two prepared names: a name serves one statement text per connection.
          if (now.state === "dropped") {
            await exec(
              c,
              sql`UPDATE field_indexes SET state = 'building', source = 'default', cursor = NULL, done = false
                  WHERE flock = ${flock} AND type = ${type} AND field = ${field}`,
              "field_index_rebuild_default",
            );
          } else {
            await exec(c, sql`UPDATE field_indexes SET source = 'default' WHERE flock = ${flock} AND type = ${type} AND field = ${field}`, "field_index_default_source");
          }
          return true;
        }
        const { rowCount } = await exec(c, sql`DELETE FROM field_indexes WHERE flock = ${flock} AND type = ${type} AND field = ${field}`);
        // The every-flock row now rules this flock's collection too, which its walk skipped.
        if (rowCount > 0 && flock !== EVERY_FLOCK) {
          await exec(
            c,
            sql`UPDATE field_indexes SET cursor = NULL, done = false, state = CASE state WHEN 'ready' THEN 'building' ELSE state END
                WHERE flock = ${EVERY_FLOCK} AND type = ${type} AND field = ${field}`,
          );
        }
        return rowCount > 0;
      });
    },

    async stepFieldIndexes(limit) {
      const { rows } = await exec<_Key>(pool, sql`SELECT flock, type, field FROM field_indexes WHERE NOT done ORDER BY type, field, flock`, "field_indexes_unfinished");
      let walked = 0;
      for (const key of rows) {
        if (walked >= limit) break;
        let ids: WriteIds | undefined;
        walked += await transaction(pool, (c) => stepRow(c, (ids = catalog.forWrite(c)), key, limit - walked));
        ids?.publish();
      }
      return walked;
    },
  };
}

// --- internal ---

/** The compiled patterns of `records_entries_rule` (a handful over a process's life). */
const _patterns = new Map<string, RegExp>();

interface _Key {
  flock: string;
  type: string;
  field: string;
}

interface _Row extends _Key {
  state: FieldIndexState;
  source: FieldIndexSource;
  /** bigint: node-postgres reads it as text. */
  cursor: string | null;
  done: boolean;
}

const _COLUMNS = sql.raw("flock, type, field, state, source, cursor, done");

function _plain(r: _Row): FieldIndexRow {
  return { flock: r.flock, type: r.type, field: r.field, state: r.state, source: r.source, progress: r.done ? 1 : 0 };
}

/** The collections a row walks; an every-flock row, those of flocks without a row of their own for the field. */
async function _cidsOf(c: Conn, r: _Key): Promise<number[]> {
  const { rows } = await exec<{ cid: number }>(
    c,
    r.flock === EVERY_FLOCK
      ? sql`SELECT c.cid FROM collections c WHERE c.type = ${r.type} AND NOT EXISTS
              (SELECT 1 FROM field_indexes f WHERE f.flock = c.flock AND f.type = c.type AND f.field = ${r.field})`
      : sql`SELECT cid FROM collections WHERE flock = ${r.flock} AND type = ${r.type}`,
  );
  return rows.map((row) => row.cid);
}

/**
 * A registry row `f`'s progress (float8): 1 when done, 0 before its first step, else the
 * share of the records of the collections it walks (`_cidsOf`) at or before its cursor.
 */
const _PROGRESS = sql.raw(`CASE WHEN f.done THEN 1::float8 WHEN f.cursor IS NULL THEN 0::float8 ELSE (
  SELECT coalesce(least(1, (count(*) FILTER (WHERE r.rid <= f.cursor))::float8 / nullif(count(*), 0)), 0)
  FROM collections c JOIN records r ON r.cid = c.cid
  WHERE c.type = f.type AND (c.flock = f.flock OR (f.flock = '${EVERY_FLOCK}' AND NOT EXISTS
    (SELECT 1 FROM field_indexes o WHERE o.flock = c.flock AND o.type = c.type AND o.field = f.field)))) END`);
