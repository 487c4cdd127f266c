/**
 * @module gateway/read-all
 * Reads for the gateways: every live record of a type matching list-query parameters
 * (walked with the storage's cursor, so no offset paging), and the reference forms
 * (URIs with or without their final slash) used to find records that name another.
 */
import { parseListQuery, recordUri, refUri, type StoredRecord } from "@records-service/core";
import type { RouteEngine } from "../http/route-engine.js";

/** Records read per storage step while walking. */
const SCAN_STEP = 1000;

/**
 * Most records read as referencing one URI (a booking's tickets, an invoice's payments):
 * far above any real event or invoice, so nothing is cut short in practice.
 */
const MAX_REFERENCING = 1_000_000;

/**
 * Every live (not deleted) record of `type` in `flock` matching `params` (the generic
 * list's filter parameters), in creation order.
 *
 * @example
 * await readAll(engine, "demo", "ticket", [["booking_ref", uri]]);
 */
export async function readAll(engine: RouteEngine, flock: string, type: string, params: [string, string][]): Promise<StoredRecord[]> {
  const { clock } = engine.context;
  const q = parseListQuery(params, { surface: "v2", now: clock.now() });
  const query = { filters: q.filters, mode: q.mode, states: q.states };
  const out: StoredRecord[] = [];
  let after: string | null = null;
  do {
    const step = await engine.read.scanRecords(flock, type, query, after, SCAN_STEP);
    out.push(...step.records);
    after = step.cursor;
  } while (after !== null);
  return out;
}

/**
 * The live records that reference `uri` (a record URI) in any field, in insertion order,
 * read through the reference index (`listReferencing`): one indexed look-up,
 * where a filter on a field would compare every record's value.
 *
 * @example
 * const refs = await referencing(engine, "demo", "/demo/booking/…/");
 * const tickets = holding(refs, "ticket", "booking_ref", "/demo/booking/…/");
 */
export async function referencing(engine: RouteEngine, flock: string, uri: string): Promise<StoredRecord[]> {
  const found = await engine.read.listReferencing(flock, canonicalUri(uri), MAX_REFERENCING);
  // In the storage's insertion order: records made in the same instant keep the order they were made in.
  return found.filter((r) => r.state === "updated");
}

/** Those of `records` of `type` whose `field` holds `uri`. */
export function holding(records: readonly StoredRecord[], type: string, field: string, uri: string): StoredRecord[] {
  const canonical = canonicalUri(uri);
  return records.filter((r) => r.type === type && refOf(r.data[field]) === canonical);
}

/** A URI with its final slash (the stored, canonical form). */
export function canonicalUri(uri: string): string {
  return uri.endsWith("/") ? uri : `${uri}/`;
}

/** The URI held by a reference field's value (a URI string, or `{ref}`), canonical; else undefined. */
export function refOf(value: unknown): string | undefined {
  return refUri(value);
}

/** The URI of a stored record. */
export function uriOf(r: Pick<StoredRecord, "flock" | "type" | "id">): string {
  return recordUri(r.flock, r.type, r.id);
}
