/**
 * @module values
 * Inserting `record_values` rows (a write's, a back-fill step's): the texts as UTF-8 bytes,
 * cut to the indexed head when longer than `PG_VALUE_KEY_BYTES` (the whole then goes to
 * the `_long` column), all in one statement.
 */
import { PG_VALUE_KEY_BYTES, type ValueRow } from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import { exec } from "./exec.js";

/** One `record_values` row to insert (`rid` may stand for a record the same statement inserts: write.ts). */
export interface ValueInsert<R = number> extends ValueRow {
  rid: R;
  fid: number;
}

/** Inserts `rows` with one statement (none when empty). */
export async function insertValues(c: pg.PoolClient, rows: readonly ValueInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await exec(
    c,
    sql`INSERT INTO record_values (rid, fid, kind, text, text_long, folded, folded_long, num)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.rid))}::bigint[], ${valueColumns(rows)})`,
    "insert_values",
  );
}

/**
 * The parameters of `rows`' columns but `rid`, as typed arrays for `unnest`: fid, kind,
 * text, text_long, folded, folded_long, num.
 */
export function valueColumns(rows: readonly ValueInsert<unknown>[]): SQL {
  const v = { fid: [] as number[], kind: [] as number[], text: [] as Buffer[], textLong: [] as (Buffer | null)[] };
  const f = { folded: [] as (Buffer | null)[], foldedLong: [] as (Buffer | null)[], num: [] as (number | null)[] };
  for (const row of rows) {
    const [text, textLong] = _columns(row.text);
    const [folded, foldedLong] = row.folded === null ? [null, null] : _columns(row.folded);
    v.fid.push(row.fid);
    v.kind.push(row.kind);
    v.text.push(text);
    v.textLong.push(textLong);
    f.folded.push(folded);
    f.foldedLong.push(foldedLong);
    f.num.push(row.num);
  }
  const p = sql.param;
  return sql`${p(v.fid)}::int[], ${p(v.kind)}::smallint[], ${p(v.text)}::bytea[],
          ${p(v.textLong)}::bytea[], ${p(f.folded)}::bytea[], ${p(f.foldedLong)}::bytea[], ${p(f.num)}::float8[]`;
}

// --- internal ---

/** The columns of one text: its UTF-8 bytes, or their head and the whole when longer. */
function _columns(text: string): [Buffer, Buffer | null] {
  const bytes = Buffer.from(text, "utf8");
  return bytes.length > PG_VALUE_KEY_BYTES ? [bytes.subarray(0, PG_VALUE_KEY_BYTES), bytes] : [bytes, null];
}
