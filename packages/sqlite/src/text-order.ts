/**
 * @module text-order
 * Text comparison that agrees with JavaScript. SQLite's BINARY collation compares UTF-8
 * bytes, i.e. code points; JS `<` compares UTF-16 code units. The two orders agree except
 * between characters outside the BMP and U+E000..U+FFFF. So an index range on SQLite text is
 * exact for prefixes (a code point prefix is a contiguous byte range) and for range bounds
 * made only of code units below U+D800; for any other bound the compiler widens the range
 * to an exact superset and filters it with `records_cmp16`, a JS comparison.
 */
import type Database from "better-sqlite3";

/** Name of the SQL function `records_cmp16(a, b)`: -1, 0 or 1 by JS (UTF-16) order. */
export const CMP16 = "records_cmp16";
/** Name of the SQL function `records_lower(a)`: JS `toLowerCase()` (SQLite's lower() is ASCII only). */
export const LOWER = "records_lower";

/** Registers the functions above on a connection. */
export function registerTextFunctions(client: Database.Database): void {
  client.function(CMP16, { deterministic: true }, (a: unknown, b: unknown) => {
    const x = String(a);
    const y = String(b);
    return x === y ? 0 : x < y ? -1 : 1;
  });
  client.function(LOWER, { deterministic: true }, (a: unknown) => (a === null ? null : String(a).toLowerCase()));
}

/**
 * The smallest string greater than every string that starts with `prefix`, in code point
 * (UTF-8 byte) order; undefined when there is none (empty prefix, or only U+10FFFF).
 *
 * @example
 * prefixUpperBound("abc") // "abd"
 * prefixUpperBound("a\u{10FFFF}") // "b"
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last === 0x10ffff) continue;
    // Skip the surrogate block: it holds no characters that UTF-8 can carry.
    const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
    return String.fromCodePoint(...points, next);
  }
  return undefined;
}

/**
 * The longest head of `s` whose code units are all below U+D800: for such a head the
 * UTF-8 and UTF-16 orders agree. Equals `s` when no correction is needed.
 */
export function orderSafeHead(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0xd800) return s.slice(0, i);
  }
  return s;
}
