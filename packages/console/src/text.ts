/**
 * @module text
 * Stored values as text, never throwing. A record can hold anything its type lets through
 * (a malformed %-escape, a lone surrogate, a number where a name was expected); the console
 * shows such a value as the text it is instead of failing while it renders.
 */

/**
 * `text` with its %-escapes decoded, or `text` itself when they are malformed.
 *
 * @example
 * decodeOr("caf%C3%A9.pdf") // "café.pdf"
 * decodeOr("%E0%A4%A")      // "%E0%A4%A"
 */
export function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` %-encoded as one part of a path or query; a lone surrogate, which
 * `encodeURIComponent` refuses with a URIError, is sent as U+FFFD.
 *
 * @example
 * encodePart("a/b")    // "a%2Fb"
 * encodePart("\ud800") // "%EF%BF%BD"
 */
export function encodePart(text: string): string {
  return encodeURIComponent(text.replace(_LONE_SURROGATE, "\uFFFD"));
}

/**
 * Any stored value as one line of text: a string as it is, null or absent as nothing,
 * anything else as its JSON.
 *
 * @example
 * textOf({ a: 1 }) // '{"a":1}'
 */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** `value` when it is a finite number, else undefined (for counts shown as bars and sums). */
export function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

// --- internal ---

const _LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
