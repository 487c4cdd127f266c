/**
 * @module query/sort-order
 * The reference order of a sorted list (`ListSort` in model/query.ts): the memory adapter
 * sorts with it and the SQL adapters' ORDER BY is tested against it.
 */
import { toEntries } from "./entries.js";
import type { ListSort } from "../model/query.js";
import type { StoredRecord } from "../model/record.js";

/** What a record is ordered by: its least number entry and its least other entry (folded). */
interface SortKey {
  num: number | undefined;
  text: string | undefined;
}

/**
 * `records` (in insertion order) sorted by `sort` (see `ListSort`); ties keep insertion
 * order ascending and are reversed descending.
 *
 * @example
 * sortRecords(matches, { field: "last_name", meta: false, descending: true })
 */
export function sortRecords(records: readonly StoredRecord[], sort: ListSort): StoredRecord[] {
  const keyed = records.map((record, at) => ({ record, at, key: _sortKeyOf(record, sort) }));
  const dir = sort.descending ? -1 : 1;
  keyed.sort((a, b) => _compareKeys(a.key, b.key, dir) || dir * (a.at - b.at));
  return keyed.map((k) => k.record);
}

/**
 * Compares two texts by Unicode code point (what UTF-8 byte order gives), not by UTF-16
 * code unit as JS `<` does: they differ between U+E000..U+FFFF and characters above U+FFFF.
 *
 * @example
 * compareCodePoints("\u{ffff}", "\u{10000}") // -1 (JS "<" says the opposite)
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return _codePointRank(x) - _codePointRank(y);
  }
  return a.length - b.length;
}

// --- internal ---

function _sortKeyOf(record: StoredRecord, sort: ListSort): SortKey {
  if (sort.meta) {
    const column = sort.field === "id" ? record.id : sort.field === "created" ? record.created : record.lastUpdated;
    return { num: undefined, text: column };
  }
  const key: SortKey = { num: undefined, text: undefined };
  if (!Object.hasOwn(record.data, sort.field)) return key;
  for (const e of toEntries(record.data[sort.field])) {
    if (e.kind === "number") {
      if (key.num === undefined || e.number! < key.num) key.num = e.number!;
    } else if (key.text === undefined || compareCodePoints(e.folded, key.text) < 0) {
      key.text = e.folded;
    }
  }
  return key;
}

/**
 * Records with a number entry first, by it; then records with another entry, by it; `dir`
 * orders within each part, never the parts (so records without a value stay last).
 */
function _compareKeys(a: SortKey, b: SortKey, dir: number): number {
  if ((a.num === undefined) !== (b.num === undefined)) return a.num === undefined ? 1 : -1;
  if (a.num !== undefined && a.num !== b.num) return dir * (a.num < b.num! ? -1 : 1);
  if ((a.text === undefined) !== (b.text === undefined)) return a.text === undefined ? 1 : -1;
  return a.text === undefined ? 0 : dir * compareCodePoints(a.text, b.text!);
}

/** A UTF-16 code unit's rank in code point order: surrogates (above U+FFFF) after U+E000..U+FFFF. */
function _codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
