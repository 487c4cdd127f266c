/**
 * @module actions/contact
 * The contact of an event: the person (or organisation) an action is about. Webhooks send
 * its data as `contact`; email actions write to its address.
 */
import { referenceValue } from "../events/payment.js";
import { parseRecordUri } from "../schema/references.js";
import type { StoredRecord } from "../storage/types.js";

/** Resource types that are contacts. */
export const CONTACT_TYPES: readonly string[] = ["person", "organisation"];

/** The fields, in order, that name a record's contact (contract: "Fields the engine reads"). */
export const CONTACT_FIELDS: readonly string[] = ["member", "person_ref", "buyer_ref", "contact_ref", "person"];

/**
 * The URI of the record's contact: the record itself when it is a person or organisation,
 * else the first of `CONTACT_FIELDS` that references a person or organisation of the same
 * flock; null when there is none.
 *
 * @example
 * relatedContactUri({ flock: "demo", type: "reservation", data: { buyer_ref: "/demo/person/…/" }, ... }) // "/demo/person/…/"
 */
export function relatedContactUri(record: StoredRecord): string | null {
  if (CONTACT_TYPES.includes(record.type)) return `/${record.flock}/${record.type}/${record.id}/`;
  for (const field of CONTACT_FIELDS) {
    const ref = referenceValue(record.data[field]);
    const uri = ref === null ? undefined : parseRecordUri(ref.endsWith("/") ? ref : `${ref}/`);
    if (uri && uri.flock === record.flock && CONTACT_TYPES.includes(uri.type)) return `/${uri.flock}/${uri.type}/${uri.id}/`;
  }
  return null;
}
