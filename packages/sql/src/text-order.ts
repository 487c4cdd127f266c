/**
 * @module text-order
 * Text comparison that agrees with JavaScript. Both databases compare text as UTF-8 bytes,
 * i.e. by code point (SQLite's BINARY collation; PostgreSQL's `bytea` and `COLLATE "C"`);
 * JS `<` compares UTF-16 code units. The two orders agree except between characters
 * outside the BMP and U+E000..U+FFFF. So an index range on stored text is exact for
 * prefixes (a code point prefix is a contiguous byte range) and for range bounds made only
 * of code units below U+D800; for any other bound the compiler widens the range to an
 * exact superset and filters it with `records_cmp16(a, b)`, a UTF-16 comparison each
 * adapter provides (SQLite: a JS function on the connection; PostgreSQL: an SQL function
 * from its migrations).
 */

/** Name of the SQL function `records_cmp16(a, b)`: -1, 0 or 1 by JS (UTF-16) order. */
export const CMP16 = "records_cmp16";

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
 *
 * @example
 * orderSafeHead("ab\uE000c") // "ab"
 */
export function orderSafeHead(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0xd800) return s.slice(0, i);
  }
  return s;
}
