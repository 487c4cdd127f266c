/**
 * @module auth/tokens
 * API keys and session tokens: 256 random bits, shown to the client once and stored only
 * as a SHA-256 hash (no salt needed at that entropy), so a copy of the database holds no
 * usable key.
 */
import * as crypto from "node:crypto";

/**
 * A new token: 32 random bytes as 64 lower-case hex characters.
 *
 * @example
 * newToken() // "9f86d081884c7d65..."
 */
export function newToken(): string {
  return crypto.randomBytes(32).toString("hex");
}

/**
 * The stored form of a token: hex SHA-256 of its text.
 *
 * @example
 * hashToken("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function hashToken(token: string): string {
  return _sha256Hex(token);
}

// --- internal ---

/**
 * Every authenticated request hashes its key: the one-shot `crypto.hash` (Node 20.12 and
 * later) costs a fraction of building a `Hash` object (~1.5 against ~5 µs); older Node
 * falls back to `createHash`. Read from the namespace, as a named import of `hash` would
 * fail to link where it is missing.
 */
const _sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");
