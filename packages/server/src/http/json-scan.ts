/**
 * @module http/json-scan
 * A linear pass over a JSON text before it is parsed, refusing texts nested deeper than
 * `MAX_JSON_DEPTH` or holding more than `MAX_JSON_VALUES` values. `JSON.parse` is
 * synchronous and its cost grows with the number of values (a 1 MiB list of empty objects
 * takes about 40 ms), so the bound is checked where it costs nothing but a scan.
 */
import { badRequest } from "@records-service/core";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "./limits.js";

/**
 * Throws 400 when `text` nests arrays and objects deeper than `MAX_JSON_DEPTH` or holds more
 * than `MAX_JSON_VALUES` values (the root, every array element and every object member,
 * containers included). Malformed JSON passes through unchanged for `JSON.parse` to name.
 *
 * @example
 * checkJsonText('{"tags": ["a", "b"]}') // fine: 4 values, 2 deep
 */
export function checkJsonText(text: string): void {
  // Per open container: true for an array; `fresh` is true until an array's first element.
  const arrays: boolean[] = [];
  let fresh = false;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === _SPACE || ch === _TAB || ch === _LF || ch === _CR) continue;
    if (fresh) {
      fresh = false;
      if (ch !== _CLOSE_ARRAY) values += 1;
    } else if (values === 0) {
      values = 1; // the root
    }
    switch (ch) {
      case _QUOTE:
        i = _stringEnd(text, i);
        break;
      case _OPEN_ARRAY:
      case _OPEN_OBJECT:
        arrays.push(ch === _OPEN_ARRAY);
        if (arrays.length > MAX_JSON_DEPTH) {
          throw badRequest("body too deeply nested", `JSON arrays and objects may be nested at most ${MAX_JSON_DEPTH} levels deep`);
        }
        fresh = ch === _OPEN_ARRAY;
        break;
      case _CLOSE_ARRAY:
      case _CLOSE_OBJECT:
        arrays.pop();
        break;
      case _COMMA:
        if (arrays.at(-1) === true) values += 1;
        break;
      case _COLON:
        if (arrays.at(-1) === false) values += 1;
        break;
    }
    if (values > MAX_JSON_VALUES) {
      throw badRequest(
        "too many values",
        `a JSON body holds at most ${MAX_JSON_VALUES} values (MAX_JSON_VALUES: every list entry and object member counts one)`,
      );
    }
  }
}

// --- internal ---

/**
 * The index of the quote closing the string that opens at `start` (the text's length when
 * it does not close), found with the native search: long texts cost next to nothing.
 */
function _stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === _BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

const _QUOTE = 0x22;
const _BACKSLASH = 0x5c;
const _SPACE = 0x20;
const _TAB = 0x09;
const _LF = 0x0a;
const _CR = 0x0d;
const _OPEN_ARRAY = 0x5b;
const _CLOSE_ARRAY = 0x5d;
const _OPEN_OBJECT = 0x7b;
const _CLOSE_OBJECT = 0x7d;
const _COMMA = 0x2c;
const _COLON = 0x3a;
