/**
 * @module derived/selfservice-reservation
 * The reservation as the self-service paths serve it (spec: "Reservation (self-service)"):
 * exactly the fields of the spec's table, absent ones null (`booking_ref` and `tags` []),
 * times without fraction, references as URI strings in the list form and as
 * `{display_value, ref}` in the single form, and `cancellation_reason` only once given.
 * Also the pure rules around it: whose reservation it is, and what cancelling changes.
 */
import {
  badRequest,
  conflict,
  displayValueOf,
  formatSeconds,
  parseTimestamp,
  recordUri,
  type StoredRecord,
} from "@records-service/core";

/** A reference in the single form. */
export interface ReservationRef {
  display_value: string;
  ref: string;
}

/** A reservation in the spec's shape; `R` is how `bookable_ref`/`buyer_ref` are written. */
export interface SelfServiceReservation<R> {
  uid: string;
  uri: string;
  active: unknown;
  bookable_ref: R | null;
  booking_ref: unknown[];
  buyer_ref: R | null;
  currency: unknown;
  start_datetime: unknown;
  end_datetime: unknown;
  enquiry: unknown;
  fee: unknown;
  formatted_title: string;
  name: unknown;
  number_of_attendees: unknown;
  pricing: unknown;
  status: unknown;
  tags: unknown[];
  tax: unknown;
  tax_rate: unknown;
  cancellation_reason?: string;
}

/** Display values of referenced records, by URI (a Map, or a lookup function). */
export type DisplayLookup = ReadonlyMap<string, string> | ((uri: string) => string | undefined);

/** The list wrapper of `GET .../reservations/`. */
export interface ReservationListBody {
  person_uri: string;
  reservations: SelfServiceReservation<string>[];
}

/** Longest `cancellation_reason` accepted, in characters. */
export const CANCELLATION_REASON_MAX_LENGTH = 1000;

/** The list form: `bookable_ref` and `buyer_ref` are URI strings. */
export function toListReservation(record: StoredRecord): SelfServiceReservation<string> {
  return _shape(record, (uri) => uri);
}

/**
 * The single form: `bookable_ref` and `buyer_ref` are `{display_value, ref}`; a reference
 * whose display value is unknown (record gone) gets `""`.
 *
 * @example
 * toSingleReservation(record, new Map([[record.data.buyer_ref, "Ada Lovelace"]]))
 */
export function toSingleReservation(record: StoredRecord, displayOf: DisplayLookup): SelfServiceReservation<ReservationRef> {
  const lookup = typeof displayOf === "function" ? displayOf : (uri: string) => displayOf.get(uri);
  return _shape(record, (uri) => ({ display_value: lookup(uri) ?? "", ref: uri }));
}

/** `{person_uri, reservations}` with the reservations in the list form. */
export function toReservationList(personUri: string, records: readonly StoredRecord[]): ReservationListBody {
  return { person_uri: personUri, reservations: records.map(toListReservation) };
}

/** The URIs the single form shows display values for: resolve these before `toSingleReservation`. */
export function reservationReferences(record: StoredRecord): string[] {
  return [...new Set([_uriOf(record.data["bookable_ref"]), _uriOf(record.data["buyer_ref"])].filter((u): u is string => !!u))];
}

/**
 * True when the caller whose person is `personUri` may see `record`: a reservation, not
 * deleted, whose `buyer_ref` is that person. Anything else answers 404, as if absent.
 */
export function isOwnReservation(record: StoredRecord, personUri: string): boolean {
  if (record.type !== "reservation" || record.state === "deleted") return false;
  const buyer = _uriOf(record.data["buyer_ref"]);
  return buyer !== undefined && _withSlash(buyer) === _withSlash(personUri);
}

/**
 * The data patch that cancels `record`: `status` `cancelled`, and the trimmed reason when
 * one is given. Throws 409 if it is already cancelled, 400 if the reason is too long.
 *
 * @example
 * engine.update(flock, "reservation", id, cancellationPatch(record, c.req.query("cancellation_reason")))
 */
export function cancellationPatch(record: StoredRecord, reason?: string): Record<string, unknown> {
  if (typeof record.data["status"] === "string" && record.data["status"].trim().toLowerCase() === "cancelled") {
    throw conflict("reservation already cancelled", `reservation ${record.id} was cancelled before; nothing to change`);
  }
  const text = reason?.trim() ?? "";
  if (text.length > CANCELLATION_REASON_MAX_LENGTH) {
    throw badRequest(
      "cancellation_reason too long",
      `cancellation_reason: ${text.length} characters; at most ${CANCELLATION_REASON_MAX_LENGTH} are accepted`,
    );
  }
  return text ? { status: "cancelled", cancellation_reason: text } : { status: "cancelled" };
}

// --- internal ---

function _shape<R>(record: StoredRecord, ref: (uri: string) => R): SelfServiceReservation<R> {
  const d = record.data;
  const refOf = (v: unknown): R | null => {
    const uri = _uriOf(v);
    return uri === undefined ? null : ref(uri);
  };
  const out: SelfServiceReservation<R> = {
    uid: record.id,
    uri: recordUri(record.flock, record.type, record.id),
    active: d["active"] ?? null,
    bookable_ref: refOf(d["bookable_ref"]),
    booking_ref: _list(d["booking_ref"]),
    buyer_ref: refOf(d["buyer_ref"]),
    currency: typeof d["currency"] === "string" ? d["currency"].toLowerCase() : (d["currency"] ?? null),
    start_datetime: _seconds(d["start_datetime"]),
    end_datetime: _seconds(d["end_datetime"]),
    enquiry: d["enquiry"] ?? null,
    fee: d["fee"] ?? null,
    formatted_title: _title(record),
    name: d["name"] ?? null,
    number_of_attendees: d["number_of_attendees"] ?? null,
    pricing: d["pricing"] ?? null,
    status: d["status"] ?? null,
    tags: _list(d["tags"]),
    tax: d["tax"] ?? null,
    tax_rate: d["tax_rate"] ?? null,
  };
  const reason = d["cancellation_reason"];
  if (typeof reason === "string" && reason.trim() !== "") out.cancellation_reason = reason;
  return out;
}

/** The URI a stored reference holds: a URI string (a `;label` suffix dropped) or `{ref}`. */
function _uriOf(v: unknown): string | undefined {
  if (typeof v === "string" && v.trim() !== "") return v.split(";")[0]!.trim();
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const ref = (v as Record<string, unknown>)["ref"];
    if (typeof ref === "string" && ref.trim() !== "") return ref.trim();
  }
  return undefined;
}

function _withSlash(uri: string): string {
  return uri.endsWith("/") ? uri : `${uri}/`;
}

/** A stored time as `YYYY-MM-DDTHH:MM:SS` (UTC); a value that is not a time is served as stored. */
function _seconds(v: unknown): unknown {
  if (typeof v !== "string") return v ?? null;
  const date = parseTimestamp(v) ?? _isoWithOffset(v);
  return date ? formatSeconds(date) : v;
}

/** ISO 8601 with an explicit offset (`+01:00`), which the spec's own format lacks. */
function _isoWithOffset(v: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?[+-]\d{2}:?\d{2}$/.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : new Date(t);
}

function _list(v: unknown): unknown[] {
  if (v === null || v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((e) => e !== null && e !== undefined);
}

/** `formatted_title`, else `name`, else the record's display value unless it is the empty placeholder. */
function _title(record: StoredRecord): string {
  for (const field of ["formatted_title", "name"]) {
    const v = record.data[field];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return record.displayValue === displayValueOf(record.type, {}) ? "" : record.displayValue;
}
