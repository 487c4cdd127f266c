/**
 * @module gateway/invoices/signature
 * Signed invoice links (spec v2-gateway 2.3): the lower-case hex HMAC-SHA256 of
 * `{flock}/{invoice_type}/{uid}`, keyed with the invoice key (HKDF-SHA256 of the secret,
 * `info` `records-service invoice-link v1`), never the secret itself, so no holder of
 * another derived key (a card link, a webhook receiver) can make invoice links. Checking
 * compares bytes in constant time; malformed signatures are refused without comparing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../../config/keys.js";

/** The `info` label of the invoice-link key. */
const INVOICE_KEY_INFO = "records-service invoice-link v1";

/** The invoice types of `/invoices/v2/{flock}/{invoice_type}/{uid}`. */
export const INVOICE_TYPES = ["invoice", "membership", "order"] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** The key of signed invoice links. */
export function invoiceKey(secret: string): Buffer {
  return deriveKey(secret, INVOICE_KEY_INFO);
}

/**
 * The signature of an invoice link.
 *
 * @example
 * invoiceSignature(invoiceKey(secret), "demo", "order", ticketId) // 64 lower-case hex characters
 */
export function invoiceSignature(key: Uint8Array, flock: string, type: InvoiceType, uid: string): string {
  return createHmac("sha256", key).update(`${flock}/${type}/${uid}`).digest("hex");
}

/** True when `signature` is 64 hex characters holding the right HMAC for this invoice. */
export function verifyInvoiceSignature(key: Uint8Array, flock: string, type: InvoiceType, uid: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac("sha256", key).update(`${flock}/${type}/${uid}`).digest();
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The signed invoice path (no host).
 *
 * @example
 * signedInvoicePath(key, "demo", "invoice", id) // "/invoices/v2/demo/invoice/<id>/<signature>"
 */
export function signedInvoicePath(key: Uint8Array, flock: string, type: InvoiceType, uid: string): string {
  return `/invoices/v2/${encodeURIComponent(flock)}/${type}/${encodeURIComponent(uid)}/${invoiceSignature(key, flock, type, uid)}`;
}
