/**
 * @module schema/references
 * Record URIs (`/{flock}/{type}/{id}/`), the two forms a client may write a reference in,
 * and the reference fields that the single-record shape expands to `{display_value, ref}`.
 */
import { DATA_EVENT_TYPE } from "../events/data-event.js";
import { RECORD_ID_RE } from "../ids.js";
import type { RecordKey, StoredRecord } from "../model/record.js";
import { parseEntry } from "./list-entries.js";
import { RESOURCE_TYPE_RE } from "./resource-types.js";

/** A parsed record URI. */
export interface RecordUri {
  flock: string;
  type: string;
  id: string;
}

/**
 * The URI of a record.
 *
 * @example
 * recordUri("demo", "person", "0123456789abcdef01234567") // "/demo/person/0123456789abcdef01234567/"
 */
export function recordUri(flock: string, type: string, id: string): string {
  return `/${flock}/${type}/${id}/`;
}

/** The parts of a record URI, or undefined when `s` is not one. */
export function parseRecordUri(s: string): RecordUri | undefined {
  const m = _URI_RE.exec(s);
  if (!m) return undefined;
  const [, flock, type, id] = m;
  if (!RESOURCE_TYPE_RE.test(type!) || !RECORD_ID_RE.test(id!)) return undefined;
  return { flock: flock!, type: type!, id: id! };
}

/** True when `v` is a string holding a record URI. */
export function isRecordUri(v: unknown): v is string {
  return typeof v === "string" && parseRecordUri(v) !== undefined;
}

/**
 * The stored form of a written value: a reference object `{display_value?, ref}` whose `ref`
 * is a record URI becomes that URI string, at the top level and inside lists; anything else is returned unchanged.
 *
 * @example
 * normalizeReference({ display_value: "Ada", ref: "/demo/person/0123456789abcdef01234567/" }) // the URI string
 */
export function normalizeReference(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(_unwrapRef);
  return _unwrapRef(value);
}

/**
 * The keys of the records that `record`'s data fields reference in its own flock: the
 * values the single-record shape expands, whole field values and list entries that are a
 * whole URI (`context_ref: [uri, uri]`; a labelled entry `uri;label` stays text).
 */
export function referencedKeys(record: StoredRecord): RecordKey[] {
  const seen = new Map<string, RecordKey>();
  const note = (value: unknown) => {
    if (typeof value !== "string") return;
    const uri = parseRecordUri(value);
    if (uri && uri.flock === record.flock) seen.set(value, { type: uri.type, id: uri.id });
  };
  for (const value of Object.values(record.data)) {
    if (Array.isArray(value)) value.forEach(note);
    else note(value);
  }
  return [...seen.values()];
}

/**
 * True when records of `type` reference the URIs their data holds: every type but the data
 * event, which is about a record (its `context_ref`, found by that field's filter) rather
 * than a reference to it. A record has one per change that emits one, so listed among its
 * references they crowded them out (`Storage.listReferencing` lists none; the SQL adapters
 * keep no `record_refs` row for one, `refTargets`).
 *
 * @example
 * keepsReferences("membership") // true
 * keepsReferences("data_event") // false
 */
export function keepsReferences(type: string): boolean {
  return type !== DATA_EVENT_TYPE;
}

/**
 * True when a data field of `data` holds `uri`: as its whole value, or as a list entry whose
 * value part (before `;`) is `uri` (`connections: ["/demo/person/<id>/;parent"]`).
 *
 * @example
 * holdsReference({ member: "/demo/person/0123456789abcdef01234567/" }, "/demo/person/0123456789abcdef01234567/") // true
 */
export function holdsReference(data: Record<string, unknown>, uri: string): boolean {
  for (const value of Object.values(data)) {
    if (value === uri) return true;
    if (Array.isArray(value) && value.some((e) => typeof e === "string" && parseEntry(e).value === uri)) return true;
  }
  return false;
}

// --- internal ---

const _URI_RE = /^\/([^/\s]+)\/([^/\s]+)\/([^/\s]+)\/$/;

function _unwrapRef(v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const onlyRefKeys = keys.every((k) => k === "ref" || k === "display_value");
  return onlyRefKeys && isRecordUri(o.ref) ? o.ref : v;
}
