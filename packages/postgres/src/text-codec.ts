/**
 * @module text-codec
 * PostgreSQL `text` cannot hold U+0000, which record data may (JSON allows "\u0000"). Free
 * text columns that are only stored and compared for equality (display values, reference
 * targets, file names, receivers' error texts...) keep it escaped: U+0001 becomes
 * U+0001 U+0001 and U+0000 becomes U+0001 U+0002. Text without either character (nearly
 * all) is stored as it is. Compared and ordered text lives elsewhere: the value index is
 * `bytea`, and the meta columns (ids, timestamps) never hold U+0000.
 */

/**
 * The stored form of a text.
 *
 * @example
 * encodeText("a\u0000b") // "a\u0001\u0002b"
 */
export function encodeText(s: string): string {
  return _SPECIAL.test(s) ? s.replace(_ALL_SPECIAL, (c) => (c === "\u0000" ? "\u0001\u0002" : "\u0001\u0001")) : s;
}

/** The text of a stored form (`encodeText`'s inverse). */
export function decodeText(s: string): string {
  return s.includes("\u0001") ? s.replace(_ESCAPED, (m) => (m === "\u0001\u0002" ? "\u0000" : "\u0001")) : s;
}

/** `encodeText` of a nullable value. */
export function encodeOpt(s: string | null | undefined): string | null {
  return s === null || s === undefined ? null : encodeText(s);
}

/** `decodeText` of a nullable value. */
export function decodeOpt(s: string | null): string | null {
  return s === null ? null : decodeText(s);
}

// --- internal ---

const _SPECIAL = /[\u0000\u0001]/;
const _ALL_SPECIAL = /[\u0000\u0001]/g;
const _ESCAPED = /\u0001[\u0001\u0002]/g;
