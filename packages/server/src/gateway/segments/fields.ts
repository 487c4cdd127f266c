/**
 * @module gateway/segments/fields
 * The known fields of a resource type and the kind of each, for fieldsets, a segment's
 * config and its export columns (spec v2-gateway section 7): a person's come from its
 * schema; another type's are the data field names of its first records, their kinds read
 * from the stored values.
 */
import { CONTACT_TYPE, PERSON_FIELDS, TASK_CHUNK_DATA_LENGTH, type StoredRecord } from "@records-service/core";
import type { RouteEngine } from "../../http/route-engine.js";

/** How many records of a type are read to learn its fields. */
const FIELD_SAMPLE_SIZE = 1000;

/** A field's kind as the hosted `field_display` names it. */
export type FieldKind = "text" | "boolean" | "date" | "list" | "reference" | "number";

/** A type's fields in order, with their kinds. */
export type TypeFields = Map<string, FieldKind>;

/**
 * The known fields of `type` in `flock` (`contact`: the person schema, then what
 * organisations hold). Reads at most `FIELD_SAMPLE_SIZE` records of a type without a schema.
 *
 * @example
 * [...(await typeFields(engine, "demo", "person")).keys()] // ["bio", "colour", ...]
 */
export async function typeFields(engine: Pick<RouteEngine, "context" | "read">, flock: string, type: string): Promise<TypeFields> {
  if (type === "person") return _personFields();
  if (type === CONTACT_TYPE) {
    const fields = _personFields();
    for (const [f, k] of await typeFields(engine, flock, "organisation")) if (!fields.has(f)) fields.set(f, k);
    return fields;
  }
  // Bounded in bytes too, so a type of large records is never read whole.
  const { records } = await engine.read.scanRecords(flock, type, { filters: [], mode: "AND", states: ["updated"] }, null, FIELD_SAMPLE_SIZE, TASK_CHUNK_DATA_LENGTH);
  return sampledFields(records);
}

/**
 * Field names in the order first seen in `records`, each with the kind of its first
 * non-empty value (text when every value is empty).
 */
function sampledFields(records: readonly StoredRecord[]): TypeFields {
  const fields: TypeFields = new Map();
  const settled = new Set<string>();
  for (const r of records) {
    for (const [field, value] of Object.entries(r.data)) {
      if (settled.has(field)) continue;
      const kind = valueKind(value);
      if (kind === undefined) {
        if (!fields.has(field)) fields.set(field, "text");
        continue;
      }
      fields.set(field, kind);
      settled.add(field);
    }
  }
  return fields;
}

/** The kind a stored value shows; undefined for null, empty text or an empty list. */
function valueKind(value: unknown): FieldKind | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : "list";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  if (typeof value === "object") return typeof (value as Record<string, unknown>).ref === "string" ? "reference" : "text";
  const text = String(value);
  if (/^\d{4}-\d{2}-\d{2}($|T)/.test(text)) return "date";
  if (/^\/[^/]+\/[a-z][a-z0-9_]*\/[^/]+\/?$/.test(text)) return "reference";
  return "text";
}

/** A field name as a label: `date_of_birth` → `Date of birth`. */
export function fieldLabel(field: string): string {
  const words = field.replace(/_+/g, " ").trim();
  return words === "" ? field : words[0]!.toUpperCase() + words.slice(1);
}

// --- internal ---

function _personFields(): TypeFields {
  const out: TypeFields = new Map();
  for (const [field, kind] of Object.entries(PERSON_FIELDS)) {
    out.set(field, kind === "boolean" || kind === "flag" ? "boolean" : kind === "date" ? "date" : kind === "list" ? "list" : "text");
  }
  return out;
}
