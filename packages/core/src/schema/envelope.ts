/**
 * @module schema/envelope
 * The JSON shapes the API answers with, built from stored records (pure): the single-record
 * envelope (create, get), the list element and the paged list wrapper.
 */
import type { ListPage, ListQuery } from "../model/query.js";
import { storedDataText, type StoredRecord } from "../model/record.js";
import { canonicalObjectKeys, replaceTopLevelNulls } from "./canonical-json.js";
import { PERSON_FIELDS } from "./person.js";
import { recordUri } from "./references.js";

/** The single-record envelope of the spec's table. */
export type SingleEnvelope = {
  bucket: string;
  data: Record<string, unknown>;
  display_value: string;
  links: unknown[];
  meta: { created: string; last_updated: string; state: string };
  resource: string;
  uri: string;
};

/** One element of a list's `results`. */
export type ListElement = {
  _id: null;
  bucket: string;
  created: string;
  data: Record<string, unknown>;
  display_value: string;
  id: string;
  last_updated: string;
  links: unknown[];
  permissions: Record<string, unknown>;
  resource: string;
  state: string;
  uri: string;
};

/** The paged list wrapper. */
export type ListWrapper = {
  grand_total: number;
  total: number;
  page: number;
  page_size: number;
  pages: number;
  links: unknown[];
  results: ListElement[];
  formatted_results: unknown[];
};

/**
 * The single-record shape. `expanded` maps the URIs of referenced records (same flock,
 * existing) to their display values: a data field holding one of those URIs becomes
 * `{display_value, ref}`. An unset person list field is `[null]`.
 *
 * @example
 * toSingleEnvelope(record, new Map([["/demo/person/0123456789abcdef01234567/", "Ada Lovelace"]]))
 */
export function toSingleEnvelope(record: StoredRecord, expanded: ReadonlyMap<string, string>): SingleEnvelope {
  // One pass over the stored fields, then the person schema's missing ones (as
  // `_completeData` orders them); strings and list entries can be references.
  const isPerson = record.type === "person";
  const data: Record<string, unknown> = {};
  for (const field of Object.keys(record.data)) {
    const value = record.data[field];
    let shown = value;
    if (typeof value === "string") {
      shown = expanded.size > 0 && expanded.has(value) ? { display_value: expanded.get(value), ref: value } : value;
    } else if (Array.isArray(value) && expanded.size > 0) {
      shown = value.map((e) => (typeof e === "string" && expanded.has(e) ? { display_value: expanded.get(e), ref: e } : e));
    } else if (value === null && isPerson && PERSON_FIELDS[field] === "list") {
      shown = [null];
    }
    if (field === "__proto__") {
      // An own member, as JSON.parse made it and the list shows it (an assignment would set the prototype).
      Object.defineProperty(data, field, { value: shown, enumerable: true, writable: true, configurable: true });
    } else data[field] = shown;
  }
  if (isPerson) {
    for (const [field, unset] of _PERSON_UNSET_SINGLE) if (!(field in data)) data[field] = unset();
  }
  return _single(record, data);
}

function _single(record: StoredRecord, data: Record<string, unknown>): SingleEnvelope {
  return {
    bucket: record.flock,
    data,
    display_value: record.displayValue,
    links: [],
    meta: { created: record.created, last_updated: record.lastUpdated, state: record.state },
    resource: record.type,
    uri: recordUri(record.flock, record.type, record.id),
  };
}

/**
 * `JSON.stringify(toSingleEnvelope(record, new Map()))`, byte for byte, with the record's
 * stored data text spliced in (as `listElementText` does): a person's `null` list fields
 * become `[null]` and its missing schema fields are appended, without parsing the data or
 * serializing it again. Undefined when it cannot vouch for that: no stored text, a text
 * `canonicalObjectKeys` does not vouch for, or a string starting with `/` anywhere (it may be a reference to expand,
 * which needs the parse: the caller takes `toSingle`'s path then).
 *
 * @example
 * const text = singleEnvelopeText(record) ?? JSON.stringify(await engine.toSingle(record));
 */
export function singleEnvelopeText(record: StoredRecord): string | undefined {
  const text = storedDataText(record);
  if (text === undefined || text.includes('"/')) return undefined;
  const keys = canonicalObjectKeys(text);
  if (keys === undefined) return undefined;
  let data = text;
  if (record.type === "person") {
    if (text.includes(":null")) data = replaceTopLevelNulls(text, keys, _PERSON_LIST_FIELDS, "[null]");
    data = _withMembers(data, keys, _PERSON_UNSET_SINGLE_TEXT, _addedToSingle);
  }
  return _withData(JSON.stringify(_single(record, _DATA_MARK)), data);
}

/** One element of a list result: references stay URIs, unset list fields stay null. */
export function toListElement(record: StoredRecord): ListElement {
  return _listElement(record, _completeData(record));
}

/**
 * `toListElement(record)` for serializing at once (`listAnswerText`): its `data` is the
 * record's own object, not a copy, when the element adds no field to it (a person stored
 * with every field of its schema, or any other type). Never to be kept or changed.
 */
export function listElementToSerialize(record: StoredRecord): ListElement {
  return _listElement(record, _addsFields(record) ? _completeData(record) : record.data);
}

/**
 * `JSON.stringify(listElementToSerialize(record))`, byte for byte. When the record still
 * holds its stored data text (`storedDataText`) and that text is what serializing its parse
 * would give (`canonicalObjectKeys`), the text is written as it is, with a person's missing
 * schema fields appended as `_completeData` adds them: the data is neither parsed nor
 * serialized again. Anything else takes the serializing path.
 *
 * @example
 * const text = listElementText(record); // same as JSON.stringify(toListElement(record))
 */
export function listElementText(record: StoredRecord): string {
  const text = storedDataText(record);
  const keys = text === undefined ? undefined : canonicalObjectKeys(text);
  if (text === undefined || keys === undefined) return JSON.stringify(listElementToSerialize(record));
  return _withData(JSON.stringify(_listElement(record, _DATA_MARK)), record.type === "person" ? _completedText(text, keys) : text);
}

/** `shell` (an answer serialized with `_DATA_MARK` for its data) with `data`, a JSON text, in the mark's place. */
function _withData(shell: string, data: string): string {
  // The first `,"data":0,` is the member itself: a string member's quotes are escaped.
  const at = shell.indexOf(_DATA_MEMBER) + _DATA_MEMBER.length - 2;
  return `${shell.slice(0, at)}${data}${shell.slice(at + 1)}`;
}

function _listElement(record: StoredRecord, data: Record<string, unknown>): ListElement {
  return {
    _id: null,
    bucket: record.flock,
    created: record.created,
    data,
    display_value: record.displayValue,
    id: record.id,
    last_updated: record.lastUpdated,
    links: [],
    permissions: {},
    resource: record.type,
    state: record.state,
    uri: recordUri(record.flock, record.type, record.id),
  };
}

/**
 * The paged list wrapper. `pages` is `ceil(total / page_size)`, so 0 when nothing matches.
 *
 * @example
 * toListWrapper({ total: 30, records }, query) // { grand_total: 30, total: 30, page: 1, page_size: 25, pages: 2, ... }
 */
export function toListWrapper(page: ListPage<StoredRecord>, query: ListQuery): ListWrapper {
  return {
    grand_total: page.total,
    total: page.total,
    page: query.page,
    page_size: query.pageSize,
    pages: Math.ceil(page.total / query.pageSize),
    links: [],
    results: page.records.map(toListElement),
    formatted_results: [],
  };
}

// --- internal ---

/** A copy of the data; a person gets every field of its schema, even if stored without it. */
function _completeData(record: StoredRecord): Record<string, unknown> {
  if (record.type !== "person") return { ...record.data };
  const data: Record<string, unknown> = { ...record.data };
  for (const [field, unset] of _PERSON_UNSET) if (!(field in data)) data[field] = unset;
  return data;
}

/** `JSON.stringify(_completeData(record))` of a person whose data is the canonical `text` with `keys`. */
function _completedText(text: string, keys: readonly string[]): string {
  return _withMembers(text, keys, _PERSON_UNSET_TEXT, _addedToList);
}

/**
 * The object `text` (with `keys`) with each of `members` (a field and its JSON member) whose
 * field it lacks appended, in their order, as `_completeData` and `toSingleEnvelope` add
 * them; `in`, as they test, also finds Object.prototype's members. `memo` keeps what is
 * appended per layout.
 */
function _withMembers(text: string, keys: readonly string[], members: readonly (readonly [string, string])[], memo: WeakMap<readonly string[], string>): string {
  let added = memo.get(keys);
  if (added === undefined) {
    const has = new Set(keys);
    added = "";
    for (const [field, member] of members) if (!has.has(field) && !(field in Object.prototype)) added += `,${member}`;
    memo.set(keys, added);
  }
  if (added === "") return text;
  return keys.length === 0 ? `{${added.slice(1)}}` : `${text.slice(0, -1)}${added}}`;
}

/** What `_withMembers` appends, per layout (`canonicalObjectKeys` gives one array per layout), for each shape. */
const _addedToList = new WeakMap<readonly string[], string>();
const _addedToSingle = new WeakMap<readonly string[], string>();

/** True when `_completeData` adds a field: a person stored without some field of its schema. */
function _addsFields(record: StoredRecord): boolean {
  if (record.type !== "person") return false;
  for (const [field] of _PERSON_UNSET) if (!(field in record.data)) return true;
  return false;
}

/** The person fields in schema order with the value an unset one has in a list element. */
const _PERSON_UNSET: readonly (readonly [string, boolean | null])[] = Object.entries(PERSON_FIELDS).map(
  ([field, kind]) => [field, kind === "flag" ? false : null] as const,
);

/** `_PERSON_UNSET` with each member's JSON text (`"field":null`). */
const _PERSON_UNSET_TEXT: readonly (readonly [string, string])[] = _PERSON_UNSET.map(([field, unset]) => [field, `${JSON.stringify(field)}:${JSON.stringify(unset)}`] as const);

/** A stand-in for the data in `listElementText`'s shell. */
const _DATA_MARK = 0 as unknown as Record<string, unknown>;
const _DATA_MEMBER = ',"data":0,';

/** The same for the single-record shape, where an unset list field is a fresh `[null]`. */
const _PERSON_UNSET_SINGLE: readonly (readonly [string, () => unknown])[] = Object.entries(PERSON_FIELDS).map(
  ([field, kind]) => [field, kind === "flag" ? () => false : kind === "list" ? () => [null] : () => null] as const,
);

/** `_PERSON_UNSET_SINGLE` with each member's JSON text. */
const _PERSON_UNSET_SINGLE_TEXT: readonly (readonly [string, string])[] = _PERSON_UNSET_SINGLE.map(([field, unset]) => [field, `${JSON.stringify(field)}:${JSON.stringify(unset())}`] as const);

/** The person's list fields, whose stored `null` the single-record shape writes as `[null]`. */
const _PERSON_LIST_FIELDS: ReadonlySet<string> = new Set(Object.entries(PERSON_FIELDS).filter(([, kind]) => kind === "list").map(([field]) => field));
