/**
 * @module actions/signature
 * Webhook signatures as the contract fixes them: `X-Records-Signature: sha256=<hex
 * HMAC-SHA256 of the body>` and, so that any Standard Webhooks library can verify, the
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}">` headers. Both are keyed with the flock's webhook key
 * (config/keys `webhookKey`: 32 bytes derived from the secret, which receivers get as
 * `whsec_<base64>` from `records-service webhook-secret FLOCK`), never with the secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The headers of one delivery attempt. */
export interface WebhookHeaders {
  "Content-Type": "application/json";
  "X-Records-Delivery": string;
  "X-Records-Signature": string;
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * `sha256=<hex HMAC-SHA256 of body>`.
 *
 * @example
 * recordsSignature(webhookKey(secret, "demo"), '{"a":1}') // "sha256=…64 hex…"
 */
export function recordsSignature(key: Uint8Array, body: string): string {
  return `sha256=${createHmac("sha256", key).update(body, "utf8").digest("hex")}`;
}

/**
 * The Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`.
 *
 * @example
 * standardSignature(webhookKey(secret, "demo"), "0123…", 1767225600, '{"a":1}') // "v1,…base64…"
 */
export function standardSignature(key: Uint8Array, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64");
  return `v1,${mac}`;
}

/**
 * Every header of one attempt: `timestamp` is Unix seconds of this attempt, `key` the
 * flock's webhook key.
 *
 * @example
 * webhookHeaders(webhookKey(secret, "demo"), job.deliveryId, 1767225600, body)
 */
export function webhookHeaders(key: Uint8Array, deliveryId: string, timestamp: number, body: string): WebhookHeaders {
  return {
    "Content-Type": "application/json",
    "X-Records-Delivery": deliveryId,
    "X-Records-Signature": recordsSignature(key, body),
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standardSignature(key, deliveryId, timestamp, body),
  };
}

/**
 * True when `header` (an `X-Records-Signature` value) is the signature of `body`; compared
 * in constant time.
 */
export function verifyRecordsSignature(key: Uint8Array, body: string, header: string | null | undefined): boolean {
  return header !== null && header !== undefined && _sameText(recordsSignature(key, body), header.trim().toLowerCase());
}

/**
 * True when one of the space-separated `v1,` signatures of a `webhook-signature` header
 * matches. Checks the signature only; receivers should also refuse old timestamps.
 */
export function verifyStandardSignature(
  key: Uint8Array,
  id: string,
  timestamp: string,
  body: string,
  header: string | null | undefined,
): boolean {
  if (!header || !/^\d+$/.test(timestamp)) return false;
  const wanted = standardSignature(key, id, Number(timestamp), body);
  return header.split(" ").some((candidate) => _sameText(wanted, candidate));
}

// --- internal ---

function _sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}
