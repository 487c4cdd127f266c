/**
 * @module auth/tokens
 * API keys and session tokens: 256 random bits, shown to the client once and stored only
 * as a SHA-256 hash (no salt needed at that entropy), so a copy of the database holds no
 * usable key.
 */
import { createHash, randomBytes } from "node:crypto";

/**
 * A new token: 32 random bytes as 64 lower-case hex characters.
 *
 * @example
 * newToken() // "9f86d081884c7d65..."
 */
export function newToken(): string {
  return randomBytes(32).toString("hex");
}

/**
 * The stored form of a token: hex SHA-256 of its text.
 *
 * @example
 * hashToken("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
