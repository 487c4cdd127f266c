/**
 * @module config/keys
 * The keys derived from the secret, one per purpose, so that holding one signs nothing
 * else: HKDF-SHA256 (RFC 5869) of the secret's UTF-8 bytes, with an empty salt and an
 * `info` label naming the purpose, 32 bytes. Card links use one key; webhooks use one key
 * per flock (the label names the flock), which that flock's receivers hold. Nothing signs
 * with the secret itself. A new secret (rotation) changes every derived key.
 */
import { hkdfSync } from "node:crypto";

/** The `info` label of the card-link key. */
const CARD_KEY_INFO = "records-service card-link v1";

/** The text form of a webhook key: this prefix and the 32 bytes in standard base64 (Standard Webhooks). */
const WEBHOOK_KEY_PREFIX = "whsec_";

/**
 * The 32-byte key for `info`, derived from `secret`.
 *
 * @example
 * deriveKey("a-long-enough-secret", "records-service card-link v1") // <Buffer 32 bytes>
 * // the same as: openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:SECRET -kdfopt info:INFO HKDF
 */
export function deriveKey(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), Buffer.from(info, "utf8"), 32));
}

/**
 * The key of signed member card links.
 *
 * @example
 * cardSignature(cardKey(secret), "demo", memberId)
 */
export function cardKey(secret: string): Buffer {
  return deriveKey(secret, CARD_KEY_INFO);
}

/**
 * The `info` label of a flock's webhook key. Each label has its own fixed prefix, so no
 * flock identifier can make it equal another purpose's label or another flock's.
 *
 * @example
 * webhookKeyInfo("demo") // "records-service webhook v1 flock:demo"
 */
export function webhookKeyInfo(flock: string): string {
  return `records-service webhook v1 flock:${flock}`;
}

/**
 * The key that signs a flock's webhook deliveries (both signature headers).
 *
 * @example
 * webhookHeaders(webhookKey(secret, "demo"), deliveryId, timestamp, body)
 */
export function webhookKey(secret: string, flock: string): Buffer {
  return deriveKey(secret, webhookKeyInfo(flock));
}

/**
 * A webhook key as `records-service webhook-secret` prints it and receivers configure it:
 * `whsec_` and the key's standard base64, the form Standard Webhooks libraries take.
 *
 * @example
 * formatWebhookKey(webhookKey(secret, "demo")) // "whsec_…44 base64 characters…"
 */
export function formatWebhookKey(key: Uint8Array): string {
  return `${WEBHOOK_KEY_PREFIX}${Buffer.from(key).toString("base64")}`;
}

/**
 * The key bytes of a `whsec_…` text (what a receiver does before computing an HMAC).
 * Throws for anything else.
 *
 * @example
 * parseWebhookKey(formatWebhookKey(key)).equals(key) // true
 */
export function parseWebhookKey(text: string): Buffer {
  const b64 = text.startsWith(WEBHOOK_KEY_PREFIX) ? text.slice(WEBHOOK_KEY_PREFIX.length) : undefined;
  if (b64 === undefined || b64 === "" || !_BASE64_RE.test(b64)) {
    throw new Error(`a webhook key is ${WEBHOOK_KEY_PREFIX} followed by standard base64 (as records-service webhook-secret prints it)`);
  }
  return Buffer.from(b64, "base64");
}

// --- internal ---

const _BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
