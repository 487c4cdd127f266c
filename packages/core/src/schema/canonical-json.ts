/**
 * @module schema/canonical-json
 * Whether a stored JSON text can be written into an answer as it is: only when it is exactly
 * the text `JSON.stringify(JSON.parse(text))` gives, so that splicing it in changes no byte
 * of the answer. Built to be cheap on what the storage writes (`JSON.stringify`'s own text)
 * and conservative on the rest: a text it cannot vouch for (any backslash escape, a control
 * character, a surrogate, a number other than a short integer in its own form, whitespace
 * between tokens, a key that is an array index, a duplicate key, nesting past
 * `_MAX_DEPTH`, anything not JSON) is left to the
 * parse-and-serialize path, which gives the right bytes for anything.
 */

/**
 * The keys of the object `text` holds, in order, when `text` is a JSON object exactly as
 * `JSON.stringify(JSON.parse(text))` writes it (and of a kind this vouches for; see the
 * module); otherwise undefined. Texts with the same keys in the same order get the same
 * array (a few such layouts are remembered), so a caller can keep what it derives from one.
 *
 * @example
 * canonicalObjectKeys('{"a":1,"b":[true,null]}') // ["a", "b"]
 * canonicalObjectKeys('{"a": 1}')               // undefined (a space)
 * canonicalObjectKeys('{"a":"\\u0041"}')        // undefined (an escape)
 */
export function canonicalObjectKeys(text: string): readonly string[] | undefined {
  if (text.charCodeAt(0) !== _OPEN_OBJECT || _NEVER_VERBATIM.test(text)) return undefined;
  const keys: string[] = [];
  const end = _object(text, 0, 0, keys);
  return end === text.length ? _layout(keys) : undefined;
}

/**
 * `text`, an object `canonicalObjectKeys` vouched for with `keys`, with the value of each
 * top-level member named in `fields` that is `null` written as `replacement`. Every member
 * is `"key":value` then `,` or `}` (no key holds an escape), so the walk skips each value
 * without looking inside it.
 *
 * @example
 * replaceTopLevelNulls('{"a":null,"b":{"a":null}}', ["a", "b"], new Set(["a"]), "[null]") // '{"a":[null],"b":{"a":null}}'
 */
export function replaceTopLevelNulls(text: string, keys: readonly string[], fields: ReadonlySet<string>, replacement: string): string {
  let out = "";
  let from = 0;
  let i = 1;
  for (const key of keys) {
    const start = i + key.length + 3; // past `"key":`
    const end = _value(text, start, 0);
    if (end - start === 4 && text.charCodeAt(start) === 0x6e && fields.has(key)) {
      out += text.slice(from, start) + replacement;
      from = end;
    }
    i = end + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

// --- internal ---

/**
 * What `JSON.stringify` would not write back as it is, found in one native pass: any
 * backslash (its escapes are left to the serializing path, however canonical), a control
 * character, a surrogate (lone ones it escapes; pairs are let go too, for simplicity).
 */
const _NEVER_VERBATIM = /[\\\u0000-\u001f\ud800-\udfff]/;

/** Deeper texts are parsed instead (the walk recurses; `JSON.parse` does not run out of stack). */
const _MAX_DEPTH = 64;
/** Integers of up to this many digits are exact doubles, written back as they are. */
const _MAX_DIGITS = 15;
const _OPEN_OBJECT = 0x7b;
const _CLOSE_OBJECT = 0x7d;
const _OPEN_ARRAY = 0x5b;
const _CLOSE_ARRAY = 0x5d;
const _QUOTE = 0x22;
const _COMMA = 0x2c;
const _COLON = 0x3a;
const _MINUS = 0x2d;
const _ZERO = 0x30;
const _NINE = 0x39;

/**
 * The object at `i` (its `{`): the index after it, or -1 if it is not well formed as
 * `JSON.stringify` writes it, or has a duplicate or an array-index key. Its keys go to `keys`.
 * (Strings hold no backslash here: `_NEVER_VERBATIM` let none through.)
 */
function _object(t: string, i: number, depth: number, keys: string[]): number {
  i += 1;
  if (t.charCodeAt(i) === _CLOSE_OBJECT) return i + 1;
  let last = "";
  let seen: Set<string> | undefined;
  for (;;) {
    if (t.charCodeAt(i) !== _QUOTE) return -1;
    const close = t.indexOf('"', i + 1);
    if (close < 0) return -1;
    const key = t.slice(i + 1, close);
    const first = key.charCodeAt(0);
    if (first >= _ZERO && first <= _NINE && _isIndexKey(key)) return -1;
    // Ascending keys cannot repeat; past the first that does not ascend, a set says. (The
    // top level's are checked once per layout, by `_layout`.)
    if (depth > 0 && seen === undefined && keys.length > 0 && !(key > last)) seen = new Set(keys);
    if (seen !== undefined) {
      if (seen.has(key)) return -1;
      seen.add(key);
    }
    keys.push(key);
    last = key;
    if (t.charCodeAt(close + 1) !== _COLON) return -1;
    i = _value(t, close + 2, depth);
    if (i < 0) return -1;
    const c = t.charCodeAt(i);
    if (c === _CLOSE_OBJECT) return i + 1;
    if (c !== _COMMA) return -1;
    i += 1;
  }
}

function _array(t: string, i: number, depth: number): number {
  i += 1;
  if (t.charCodeAt(i) === _CLOSE_ARRAY) return i + 1;
  for (;;) {
    i = _value(t, i, depth);
    if (i < 0) return -1;
    const c = t.charCodeAt(i);
    if (c === _CLOSE_ARRAY) return i + 1;
    if (c !== _COMMA) return -1;
    i += 1;
  }
}

/** The value at `i`: the index after it, or -1. */
function _value(t: string, i: number, depth: number): number {
  const c = t.charCodeAt(i);
  switch (c) {
    case _QUOTE: {
      const close = t.indexOf('"', i + 1);
      return close < 0 ? -1 : close + 1;
    }
    case _OPEN_OBJECT:
      return depth < _MAX_DEPTH ? _object(t, i, depth + 1, []) : -1;
    case _OPEN_ARRAY:
      return depth < _MAX_DEPTH ? _array(t, i, depth + 1) : -1;
    // The words, letter by letter (a call of startsWith per value cost more than the rest).
    case 0x6e: // null
      return t.charCodeAt(i + 1) === 0x75 && t.charCodeAt(i + 2) === 0x6c && t.charCodeAt(i + 3) === 0x6c ? i + 4 : -1;
    case 0x74: // true
      return t.charCodeAt(i + 1) === 0x72 && t.charCodeAt(i + 2) === 0x75 && t.charCodeAt(i + 3) === 0x65 ? i + 4 : -1;
    case 0x66: // false
      return t.charCodeAt(i + 1) === 0x61 && t.charCodeAt(i + 2) === 0x6c && t.charCodeAt(i + 3) === 0x73 && t.charCodeAt(i + 4) === 0x65 ? i + 5 : -1;
    default: {
      // An integer as String() writes it: no "-0", no leading zero, few enough digits to be exact.
      const start = c === _MINUS ? i + 1 : i;
      let j = start;
      for (let d = t.charCodeAt(j); d >= _ZERO && d <= _NINE; d = t.charCodeAt(j)) j += 1;
      const digits = j - start;
      if (digits === 0 || digits > _MAX_DIGITS) return -1;
      if (t.charCodeAt(start) === _ZERO && (digits > 1 || c === _MINUS)) return -1;
      return j;
    }
  }
}

/** A key JSON.parse would place first as an array index (its order would change). */
function _isIndexKey(key: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(key);
}

/**
 * `keys` as a layout: the same array as before when a remembered layout has these keys in
 * this order (checked once for duplicates), else `keys` once checked, or undefined when a
 * key repeats. The storage's persons share one layout, so the set below is built for the
 * first of them, not for each.
 */
function _layout(keys: string[]): readonly string[] | undefined {
  for (const known of _layouts) if (_sameKeys(known, keys)) return known;
  if (new Set(keys).size !== keys.length) return undefined;
  _layouts.unshift(keys);
  if (_layouts.length > _MAX_LAYOUTS) _layouts.pop();
  return keys;
}

function _sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The layouts remembered, the newest first (a pure memo: any layout is checked again when gone). */
const _layouts: (readonly string[])[] = [];
const _MAX_LAYOUTS = 16;
