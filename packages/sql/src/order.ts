/**
 * @module order
 * The ORDER BY of a list page: insertion order (`r.rid`), or core's `ListSort` as SQL.
 * A data field is ordered by two probes of `record_values` per match (the record's least
 * number entry, then its least other entry lower-cased, in byte order, which is code point
 * order), NULLs last, then `rid`: exactly core's `sortRecords`. No index serves such an
 * order; the matches are sorted (at 10,000 records a page costs a few tens of ms). When no
 * record of the collection holds a number in the field, the number probe is left out.
 */
import type { SQL } from "drizzle-orm";
import { sql } from "./sql-tag.js";
import type { ListSort } from "@records-service/core";
import type { FieldSource } from "./compile.js";
import type { SqlDialect } from "./dialects.js";
import { KIND_CODES } from "./index-rows.js";

/**
 * The ORDER BY terms of a page over `records r`; `backwards` reads the same order from its
 * end (a page past the middle, which the caller reverses). `fid` is the sorted data
 * field's id, undefined when no record of the collection has the field; `numbers` false
 * when no record of the collection holds a number in it (`sortNumbersProbe`), so every
 * number probe would be NULL and tie: the probe is left out (a third of a sorted page's
 * time at 10,000 records).
 *
 * @example
 * orderTerms(sqliteDialect, { field: "created", meta: true, descending: true }, undefined, false)
 * // r.created DESC, r.rid DESC
 */
export function orderTerms(dialect: SqlDialect, sort: ListSort | undefined, fid: FieldSource | undefined, backwards: boolean, numbers = true): SQL {
  const down = (sort?.descending ?? false) !== backwards;
  const dir = down ? sql`DESC` : sql`ASC`;
  const rid = sql`r.rid ${dir}`;
  if (!sort) return rid;
  if (sort.meta) return sql`${sql.raw(_META_COLUMNS[sort.field] ?? "r.rid")} ${dir}, ${rid}`;
  if (fid === undefined) return rid; // no record has a value: all tie
  // Records with a value come first in either direction; read backwards, last.
  const nulls = backwards ? sql`NULLS FIRST` : sql`NULLS LAST`;
  // A value's folded form is stored only where folding changes it and it is no timestamp
  // (NULL otherwise): the key is the folded form, else the text's (`foldOfText`).
  const folded = sql`coalesce(${dialect.valueColumn("folded").full}, ${dialect.foldOfText(dialect.valueColumn("text").full)})`;
  // `+fid`: the probe goes by the record's rows (rid), never along the field's value index in
  // value order, which would walk every record's entry per record (seconds at 10,000).
  // A scanned field's entries come from the record's data (`fieldEntries`), in the same columns.
  const entries = typeof fid === "number" ? sql`record_values WHERE rid = r.rid AND +fid = ${fid} AND` : sql`${dialect.fieldEntries(fid.scan)} WHERE`;
  const num = sql`(SELECT min(num) FROM ${entries} kind = ${KIND_CODES.number})`;
  const text = sql`(SELECT ${folded} FROM ${entries} kind <> ${KIND_CODES.number} ORDER BY 1 LIMIT 1)`;
  if (!numbers) return sql`${text} ${dir} ${nulls}, ${rid}`;
  return sql`${num} ${dir} ${nulls}, ${text} ${dir} ${nulls}, ${rid}`;
}

// --- internal ---

const _META_COLUMNS: Record<string, string> = { id: "r.id", created: "r.created", last_updated: "r.last_updated" };
