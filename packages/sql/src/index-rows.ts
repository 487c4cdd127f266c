/**
 * @module index-rows
 * What a record's data contributes to the derived tables: the distinct comparable entries
 * of each field (core's `toEntries`, the same function the reference evaluator uses) for
 * `record_values`, and the record URIs it references for `record_refs`.
 */
import { keepsReferences, toEntries } from "@records-service/core";

/** `Entry.kind` as stored: small integers take little space. */
export const KIND_CODES = { string: 0, number: 1, boolean: 2, json: 3 } as const;

/** One `record_values` row, less `rid` and `fid`. */
export interface ValueRow {
  kind: number;
  text: string;
  /**
   * The case-folded text, or null when it equals `text` (about half of a person's values
   * and most of a membership's) or `text` is a timestamp (`isStampText`): such a row then
   * has no entry in the folded index, and the case-insensitive filters read its `text`
   * instead (compile.ts, `foldedRanges`).
   */
  folded: string | null;
  num: number | null;
}

/**
 * The distinct entries of one field's value. Duplicates (same kind and text) are dropped:
 * every modifier asks whether some entry matches, so they add nothing.
 *
 * @example
 * valueRows(["a;home", "a;home", 3]) // [{kind: 0, text: "a;home", folded: null, ...}, {kind: 1, text: "3", num: 3, ...}]
 */
export function valueRows(value: unknown): ValueRow[] {
  const seen = new Set<string>();
  const rows: ValueRow[] = [];
  for (const e of toEntries(value)) {
    const kind = KIND_CODES[e.kind];
    const key = `${kind}:${e.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ kind, text: e.text, folded: e.folded === e.text || isStampText(e.text) ? null : e.folded, num: e.number });
  }
  return rows;
}

/**
 * True when `text` is a timestamp as the API writes it (`2026-11-29T11:50:00.000000`): a
 * date, `T`, then digits, colons and dots. Its folded form differs from it only in that
 * `T` (`t`), so it keeps no folded entry: a data event's two timestamps' entries, each at
 * the end of its field's range, cost a create three pages (docs/performance.md). Among the
 * texts without a folded entry, only these hold an upper-case letter: the compiler reads
 * the `t` of a case-insensitive needle as this `T` (`stampNeedle`) and the sort key lowers
 * it (`SqlDialect.foldOfText`).
 *
 * @example
 * isStampText("2026-11-29T11:50:00.000000") // true
 * isStampText("2026-11-29") // false: a date folds to itself
 */
export function isStampText(text: string): boolean {
  return text.length > 10 && text.charCodeAt(10) === 84 /* T */ && _STAMP.test(text);
}

/**
 * The text a timestamp's `text` holds where its folded form holds `needle` (lower-cased),
 * or undefined when no timestamp's folded form can (`isStampText`): that form's one `t` is
 * its eleventh character, so a needle with one `t` (at the eleventh place, for a `prefix`)
 * is held as the same with `T`. A needle without `t` is held by a timestamp's text as by
 * its folded form, and one with two is held by neither.
 *
 * @example
 * stampNeedle("29t11:5", false) // "29T11:5"
 * stampNeedle("2026-11-29t1", true) // "2026-11-29T1"
 * stampNeedle("2026-11-29", true) // undefined: the text range finds it
 */
export function stampNeedle(needle: string, prefix: boolean): string | undefined {
  const at = needle.indexOf("t");
  if (at < 0 || needle.indexOf("t", at + 1) >= 0 || (prefix && at !== 10)) return undefined;
  return `${needle.slice(0, at)}T${needle.slice(at + 1)}`;
}

const _STAMP = /^\d{4}-\d{2}-\d{2}T[\d:.]*$/;

/**
 * Name of the SQL table function `records_entries(value, name)` (SQLite: a JS function
 * registered on each connection): the `valueRows` of a field, from `value`, the field's
 * JSON text (no `name`: SQLite gives a table function no row for a NULL argument), or from `value`, the record's whole data JSON, picking `name`.
 * PostgreSQL: `records_entries(data, name, rid)`, a SQL function of its migrations.
 */
export const ENTRIES = "records_entries";

/**
 * The rows of `records_entries(value, name)` (see `ENTRIES`): the field's `valueRows`.
 *
 * @example
 * [...entriesOf('["a", 3]', null)] // [{kind: 0, text: "a", ...}, {kind: 1, text: "3", num: 3, ...}]
 */
export function* entriesOf(value: unknown, name: unknown): Generator<ValueRow> {
  if (typeof value !== "string") return;
  const parsed: unknown = JSON.parse(value);
  const field = typeof name === "string" ? (parsed !== null && typeof parsed === "object" && Object.hasOwn(parsed, name) ? (parsed as Record<string, unknown>)[name] : undefined) : parsed;
  yield* valueRows(field);
}

/**
 * The reference targets of a record's data: every string value that looks like a record
 * URI (starts with `/`), and every such list entry whole and, for `uri;label` entries, the
 * part before the first `;`. `listReferencing` looks targets up exactly. None for a type
 * that keeps no references (core's `keepsReferences`: a data event).
 *
 * @example
 * refTargets({ type: "membership", data: { member: "/demo/person/0123456789abcdef01234567/", connections: ["/demo/person/aa.../;friend"] } })
 * // ["/demo/person/0123456789abcdef01234567/", "/demo/person/aa.../;friend", "/demo/person/aa.../"]
 */
export function refTargets(record: { type: string; data: Record<string, unknown> }): string[] {
  if (!keepsReferences(record.type)) return [];
  const { data } = record;
  const targets = new Set<string>();
  const isUriLike = (v: unknown): v is string => typeof v === "string" && v.startsWith("/");
  for (const value of Object.values(data)) {
    if (isUriLike(value)) targets.add(value);
    if (!Array.isArray(value)) continue;
    for (const entry of value) {
      if (!isUriLike(entry)) continue;
      targets.add(entry);
      const semi = entry.indexOf(";");
      if (semi > 0) targets.add(entry.slice(0, semi));
    }
  }
  return [...targets];
}
