/**
 * @module gateway/read-all
 * Reads for the gateways: every live record of a type matching list-query parameters
 * (walked with the storage's cursor, so no offset paging), and the reference forms
 * (URIs with or without their final slash) used to find records that name another.
 */
import { parseListQuery, recordUri, type RecordEngine, type StoredRecord } from "@records-service/core";

/** Records read per storage step while walking. */
const SCAN_STEP = 1000;

/**
 * Every live (not deleted) record of `type` in `flock` matching `params` (the generic
 * list's filter parameters), in creation order.
 *
 * @example
 * await readAll(engine, "demo", "ticket", [["booking_ref", uri]]);
 */
export async function readAll(engine: RecordEngine, flock: string, type: string, params: [string, string][]): Promise<StoredRecord[]> {
  const { storage, clock } = engine.context;
  const q = parseListQuery(params, { surface: "v2", now: clock.now() });
  const query = { filters: q.filters, mode: q.mode, states: q.states };
  const out: StoredRecord[] = [];
  let after: string | null = null;
  do {
    const step = await storage.scanRecords(flock, type, query, after, SCAN_STEP);
    out.push(...step.records);
    after = step.cursor;
  } while (after !== null);
  return out;
}

/**
 * The filter parameters matching a reference field that holds `uri`, written with or
 * without its final slash (clients write both).
 */
export function refParams(field: string, uris: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const uri of uris) {
    const canonical = canonicalUri(uri);
    out.push([`${field}__or`, canonical], [`${field}__or`, canonical.slice(0, -1)]);
  }
  return out;
}

/** A URI with its final slash (the stored, canonical form). */
export function canonicalUri(uri: string): string {
  return uri.endsWith("/") ? uri : `${uri}/`;
}

/** The URI held by a reference field's value (a URI string, or `{ref}`), canonical; else undefined. */
export function refOf(value: unknown): string | undefined {
  const raw = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).ref : value;
  return typeof raw === "string" && raw.startsWith("/") ? canonicalUri(raw) : undefined;
}

/** The URI of a stored record. */
export function uriOf(r: Pick<StoredRecord, "flock" | "type" | "id">): string {
  return recordUri(r.flock, r.type, r.id);
}
