/**
 * @module query/entries
 * How a stored data value becomes the comparable entries that filters test. The in-memory
 * evaluator and every Storage adapter's index use this one function, so they cannot drift.
 */

/**
 * One comparable entry of a stored value.
 * - `kind` decides which filters can see it: range filters with a numeric value look at
 *   `number` entries, range filters with a text value at `string` entries;
 * - `text` is what exact, substring and prefix filters compare (whole value, case-sensitive);
 * - `folded` is `text.toLowerCase()`, for the case-insensitive modifiers;
 * - `number` is set only for `kind: "number"`.
 */
export interface Entry {
  kind: "string" | "number" | "boolean" | "json";
  text: string;
  folded: string;
  number: number | null;
}

/**
 * The entries of one data field's value: none for null/undefined, one for a scalar, one per
 * element for a list (null elements skipped; a whole list entry such as `ada@x.org;home` is
 * one entry). Objects (e.g. `geo`, or nested lists) become one `json` entry of their JSON text.
 *
 * @example
 * toEntries(["a;home", null, 3]) // [{kind:"string",text:"a;home",...}, {kind:"number",text:"3",number:3,...}]
 */
export function toEntries(value: unknown): Entry[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(_scalarEntry);
  return _scalarEntry(value);
}

// --- internal ---

function _scalarEntry(v: unknown): Entry[] {
  switch (typeof v) {
    case "string":
      return [{ kind: "string", text: v, folded: v.toLowerCase(), number: null }];
    case "number":
      if (!Number.isFinite(v)) return [];
      return [{ kind: "number", text: String(v), folded: String(v), number: v }];
    case "boolean":
      return [{ kind: "boolean", text: String(v), folded: String(v), number: null }];
    case "object": {
      if (v === null) return [];
      const text = JSON.stringify(v);
      return [{ kind: "json", text, folded: text.toLowerCase(), number: null }];
    }
    default:
      return [];
  }
}
