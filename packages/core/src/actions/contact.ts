/**
 * @module actions/contact
 * The contact of an event: the person (or organisation) an action is about. Webhooks send
 * its data as `contact`; email actions write to its address.
 */
import { paymentEvent, referenceValue } from "../events/payment.js";
import { parseRecordUri } from "../schema/references.js";
import { CONTACT_TYPES } from "../schema/resource-types.js";
import type { StoredRecord } from "../model/record.js";

/** The fields, in order, that name a record's contact (contract: "Fields the engine reads"). */
const CONTACT_FIELDS: readonly string[] = ["member", "person_ref", "buyer_ref", "contact_ref", "person"];

/**
 * Where the record's contact is, as a URI of the same flock: the record itself when it is
 * a person or organisation, else the first of `CONTACT_FIELDS` that references one. A
 * payment is about what it pays for: it answers the record its event was chosen by
 * (`paymentEvent`'s reference: the membership, ticket, donation, ...), which is not a
 * contact; the caller loads that record and asks again (see `isContactUri`). A payment
 * without such a reference falls back to its own contact fields. Null when there is none.
 *
 * @example
 * relatedContactUri({ flock: "demo", type: "reservation", data: { buyer_ref: "/demo/person/…/" }, ... }) // "/demo/person/…/"
 * relatedContactUri({ flock: "demo", type: "payment", data: { membership_ref: "/demo/membership/…/" }, ... }) // "/demo/membership/…/"
 */
export function relatedContactUri(record: StoredRecord): string | null {
  if (CONTACT_TYPES.includes(record.type)) return `/${record.flock}/${record.type}/${record.id}/`;
  if (record.type === "payment") {
    const paid = _sameFlockUri(record.flock, paymentEvent(record.data).ref);
    if (paid && paid.type !== "payment") return `/${paid.flock}/${paid.type}/${paid.id}/`;
  }
  for (const field of CONTACT_FIELDS) {
    const uri = _sameFlockUri(record.flock, referenceValue(record.data[field]));
    if (uri && CONTACT_TYPES.includes(uri.type)) return `/${uri.flock}/${uri.type}/${uri.id}/`;
  }
  return null;
}

/** True when `uri` (as `relatedContactUri` answers) names a contact, not a record to follow. */
export function isContactUri(uri: string): boolean {
  const parsed = parseRecordUri(uri);
  return parsed !== undefined && CONTACT_TYPES.includes(parsed.type);
}

// --- internal ---

function _sameFlockUri(flock: string, ref: string | null) {
  const uri = ref === null ? undefined : parseRecordUri(ref.endsWith("/") ? ref : `${ref}/`);
  return uri && uri.flock === flock ? uri : undefined;
}
