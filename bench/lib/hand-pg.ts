/**
 * @module bench/lib/hand-pg
 * The hand-written side on PostgreSQL: the same questions asked of the same tables with
 * node-postgres and the simplest SQL a person who knows our schema would write, as
 * bench/lib/hand-sql does on the SQLite file (collection and field ids looked up once, the
 * page and the count as two statements, every statement prepared, `data` parsed from JSON,
 * value-index texts passed as their UTF-8 bytes). Where PostgreSQL plans the plainest form
 * badly, the question's form is the one a person would rewrite it to (see
 * bench/scenarios/postgres-in-process). Writes: a person's rows inserted as
 * `apply` would (record, value-index rows, the kept count), by hand.
 */
import { isIndexedByDefault } from "@records-service/core";
import { refTargets, valueRows } from "@records-service/sql";
import pg from "pg";
import type { HandPage } from "./hand-sql.js";

/** Hand-written reads and writes on one database. */
export interface HandPg {
  readonly pool: pg.Pool;
  /** The collection id of `flock`/`type`. */
  cid(flock: string, type: string): Promise<number>;
  /** The field id of `name` in collection `cid`. */
  fid(cid: number, name: string): Promise<number>;
  /** One record by id, parsed. */
  getById(id: string): Promise<Record<string, unknown> | undefined>;
  /**
   * The total and a page of a list question: `q.count`, then `q.page` ordered by `q.order`
   * (ascending, or descending with `fromEnd`: the page read backwards from the last match).
   */
  list(q: HandQuery, page: { limit: number; offset: number; fromEnd?: boolean }): Promise<HandPage>;
  /** `count(*)` of the live records of `cid`. */
  count(cid: number): Promise<number>;
  /**
   * Inserts `records` (already validated and derived, as `apply` gets them) of collection
   * `cid` in one transaction: one multi-row INSERT of the records, one of their value rows,
   * one of their references when any, the kept count.
   */
  insert(cid: number, records: readonly HandRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** A list question as two hand-written statements, with `?` placeholders for `args` (both take all of them). */
export interface HandQuery {
  /** Selects the number of matches as `n`. */
  count: string;
  /** Selects `HAND_COLUMNS` of the matches, without ORDER BY or LIMIT. */
  page: string;
  /** What the page is ordered by (the insertion order, `rid`). */
  order: string;
  args: unknown[];
}

/** The record columns a page selects from `records r`. */
export const HAND_COLUMNS = "r.id, r.state, r.data, r.display_value, r.created, r.last_updated, r.version";

/**
 * The plainest form of a question: `count(*)` and the page over `records r` of collection
 * `cid`, state `updated` and `where` (when not empty).
 *
 * @example
 * plainQuery(1, "r.created >= ?", ["2026-01-01T00:00:00.000000"])
 */
export function plainQuery(cid: number, where: string, args: unknown[]): HandQuery {
  const base = `FROM records r WHERE r.cid = ? AND r.state = 'updated'${where ? ` AND (${where})` : ""}`;
  return { count: `SELECT count(*) AS n ${base}`, page: `SELECT ${HAND_COLUMNS} ${base}`, order: "r.rid", args: [cid, ...args] };
}

/** A record to insert by hand. */
export interface HandRecord {
  id: string;
  data: Record<string, unknown>;
  displayValue: string;
  created: string;
}

/**
 * Opens a pool of 2 on `url`.
 *
 * @example
 * const hand = openHandPg("postgres://postgres@127.0.0.1:5432/records_bench_100k_s42");
 */
export function openHandPg(url: string): HandPg {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {});
  const names = new Map<string, string>();
  const run = <T extends pg.QueryResultRow>(c: pg.Pool | pg.PoolClient, text: string, values: unknown[]) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `hand_${names.size}`));
    return c.query<T>({ name, text, values });
  };
  const parse = (r: Record<string, unknown>) => ({ ...r, data: JSON.parse(r.data as string) as unknown });
  const fields = new Map<number, Map<string, number>>();

  const fidsOf = async (cid: number): Promise<Map<string, number>> => {
    let m = fields.get(cid);
    if (!m) {
      const { rows } = await run<{ fid: number; name: string }>(pool, "SELECT fid, name FROM fields WHERE cid = $1", [cid]);
      fields.set(cid, (m = new Map(rows.map((r) => [r.name, r.fid]))));
    }
    return m;
  };

  return {
    pool,
    cid: async (flock, type) =>
      (await run<{ cid: number }>(pool, "SELECT cid FROM collections WHERE flock = $1 AND type = $2", [flock, type])).rows[0]!.cid,
    fid: async (cid, name) => {
      const fid = (await fidsOf(cid)).get(name);
      if (fid === undefined) throw new Error(`no field '${name}' in collection ${cid}`);
      return fid;
    },
    getById: async (id) => {
      const { rows } = await run(pool, `SELECT ${HAND_COLUMNS} FROM records r WHERE r.id = $1`, [id]);
      return rows[0] ? parse(rows[0]) : undefined;
    },
    list: async (q, page) => {
      const n = Number((await run<{ n: string }>(pool, _numbered(q.count, 1), q.args)).rows[0]!.n);
      const at = q.args.length + 1;
      const text = `${_numbered(q.page, 1)} ORDER BY ${q.order} ${page.fromEnd ? "DESC" : "ASC"} LIMIT $${at} OFFSET $${at + 1}`;
      const { rows } = await run(pool, text, [...q.args, page.limit, page.offset]);
      if (page.fromEnd) rows.reverse();
      return { total: n, records: rows.map(parse) };
    },
    count: async (cid) =>
      Number((await run<{ n: string }>(pool, "SELECT count(*) AS n FROM records r WHERE r.cid = $1 AND r.state = 'updated'", [cid])).rows[0]!.n),
    insert: async (cid, records) => {
      const fids = await fidsOf(cid);
      // The fields the value index keeps for this type (no registry rows in a seeded data set:
      // the defaults), as the engine writes them.
      const { type } = (await run<{ type: string }>(pool, "SELECT type FROM collections WHERE cid = $1", [cid])).rows[0]!;
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const { rows } = await run<{ id: string; rid: string }>(
          c,
          `INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version)
           SELECT $1, u.id, 'updated', u.data, u.dv, u.created, u.created, 1
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, data, dv, created, ord)
           ORDER BY u.ord RETURNING id, rid`,
          [cid, records.map((r) => r.id), records.map((r) => JSON.stringify(r.data)), records.map((r) => r.displayValue), records.map((r) => r.created)],
        );
        const rids = new Map(rows.map((r) => [r.id, r.rid]));
        const v = { rid: [] as string[], fid: [] as number[], kind: [] as number[], text: [] as Buffer[], folded: [] as (Buffer | null)[], num: [] as (number | null)[] };
        const refs = { target: [] as string[], rid: [] as string[] };
        for (const r of records) {
          const rid = rids.get(r.id)!;
          for (const [field, value] of Object.entries(r.data)) {
            if (!isIndexedByDefault(type, field)) continue;
            for (const row of valueRows(value)) {
              const fid = fids.get(field);
              if (fid === undefined) throw new Error(`no field '${field}' in collection ${cid}`);
              v.rid.push(rid);
              v.fid.push(fid);
              v.kind.push(row.kind);
              // Persons' values are short: no `_long` columns to fill.
              v.text.push(Buffer.from(row.text, "utf8"));
              v.folded.push(row.folded === null ? null : Buffer.from(row.folded, "utf8"));
              v.num.push(row.num);
            }
          }
          for (const t of refTargets({ type, data: r.data })) {
            refs.target.push(t);
            refs.rid.push(rid);
          }
        }
        await run(
          c,
          `INSERT INTO record_values (rid, fid, kind, text, folded, num)
           SELECT * FROM unnest($1::bigint[], $2::int[], $3::smallint[], $4::bytea[], $5::bytea[], $6::float8[])`,
          [v.rid, v.fid, v.kind, v.text, v.folded, v.num],
        );
        if (refs.rid.length) await run(c, "INSERT INTO record_refs (target, rid) SELECT * FROM unnest($1::text[], $2::bigint[])", [refs.target, refs.rid]);
        await run(c, "UPDATE collection_counts SET n = n + $2 WHERE cid = $1 AND state = 'updated'", [cid, records.length]);
        await c.query("COMMIT");
      } catch (e) {
        await c.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

// --- internal ---

/** `?` placeholders numbered `$from`, `$from + 1`... */
function _numbered(where: string, from: number): string {
  let n = from;
  return where.replace(/\?/g, () => `$${n++}`);
}
