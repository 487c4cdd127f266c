/**
 * @module gateway/segments/fieldsets
 * Fieldsets (spec v2-gateway section 7): saved field lists, `fieldset` records with `name`,
 * `description`, `fields`, `applicable_resources` (empty: every type), `active` and
 * `locked`. Their list entry (vendor `fieldsetList`), single shape (`fieldsetSingle`) and
 * the look-ups segments make of them.
 */
import { badRequest, type StoredRecord } from "@records-service/core";
import { liveRecords } from "../live-records.js";
import { uriOf } from "../read-all.js";
import { typeFields, type FieldKind } from "./fields.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The fieldset type. */
export const FIELDSET_TYPE = "fieldset";

/**
 * The list entry of a fieldset.
 *
 * @example
 * fieldsetEntry(record) // { uid, uri, name, description, fields, applicable_resources, created, last_updated, record_state }
 */
export function fieldsetEntry(r: StoredRecord): Record<string, unknown> {
  return {
    uid: r.id,
    uri: uriOf(r),
    name: typeof r.data.name === "string" ? r.data.name : null,
    description: typeof r.data.description === "string" ? r.data.description : null,
    fields: fieldsOf(r),
    applicable_resources: applicableTo(r),
    created: r.created,
    last_updated: r.lastUpdated,
    record_state: r.state,
  };
}

/**
 * The single shape: the entry plus `active`, `locked` and `field_display`, each field's kind
 * from the person schema or the stored values of the types it applies to (text when unknown).
 */
export async function fieldsetSingle(engine: Pick<RouteEngine, "context" | "read">, r: StoredRecord): Promise<Record<string, unknown>> {
  const kinds = new Map<string, FieldKind>();
  // At most a few types are sampled: a fieldset names its fields, not whole schemas.
  for (const type of applicableTo(r).slice(0, _KIND_TYPES)) {
    for (const [f, k] of await typeFields(engine, r.flock, type)) if (!kinds.has(f)) kinds.set(f, k);
  }
  return {
    ...fieldsetEntry(r),
    active: _flag(r.data.active, true),
    locked: isLocked(r),
    field_display: fieldsOf(r).map((field) => ({ field, type: kinds.get(field) ?? "text" })),
  };
}

/** The field names a fieldset lists (texts only). */
export function fieldsOf(r: StoredRecord): string[] {
  const v = r.data.fields;
  const list = Array.isArray(v) ? v : typeof v === "string" && v !== "" ? [v] : [];
  return list.filter((f): f is string => typeof f === "string" && f !== "");
}

/** The types a fieldset applies to (empty: every type). */
function applicableTo(r: StoredRecord): string[] {
  const v = r.data.applicable_resources;
  const list = Array.isArray(v) ? v : typeof v === "string" && v !== "" ? [v] : [];
  return list.filter((t): t is string => typeof t === "string" && t !== "");
}

/** True when the fieldset applies to `type` (its list is empty or names it). */
function appliesTo(r: StoredRecord, type: string): boolean {
  const list = applicableTo(r);
  return list.length === 0 || list.includes(type);
}

/** True when the fieldset may not be deleted. */
export function isLocked(r: StoredRecord): boolean {
  return _flag(r.data.locked, false);
}

/**
 * The flock's live fieldsets, oldest first; with `type`, those that apply to it.
 *
 * @example
 * await fieldsetsOf(engine, "demo", "person")
 */
export async function fieldsetsOf(engine: RouteEngine, flock: string, type?: string): Promise<StoredRecord[]> {
  const all = await liveRecords(engine, flock, FIELDSET_TYPE);
  return type === undefined ? all : all.filter((r) => appliesTo(r, type));
}

/**
 * The fieldset a `template` names, by uid or else by name (case ignored), among the live
 * fieldsets that apply to `type`; 400 naming it when none does.
 *
 * @example
 * await templateFieldset(engine, "demo", "person", "Mailing list")
 */
export async function templateFieldset(engine: RouteEngine, flock: string, type: string, template: string): Promise<StoredRecord> {
  const candidates = await fieldsetsOf(engine, flock, type);
  const wanted = template.trim().toLowerCase();
  const found = candidates.find((r) => r.id === template) ?? candidates.find((r) => typeof r.data.name === "string" && r.data.name.trim().toLowerCase() === wanted);
  if (!found) throw badRequest("unknown template", `no fieldset ${JSON.stringify(template.slice(0, 80))} (by uid or name) applies to ${type} in flock ${flock}`);
  if (fieldsOf(found).length === 0) throw badRequest("empty template", `fieldset ${uriOf(found)} lists no fields`);
  return found;
}

// --- internal ---

/** How many applicable types `field_display` samples for kinds. */
const _KIND_TYPES = 5;

function _flag(v: unknown, fallback: boolean): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
  return fallback;
}
