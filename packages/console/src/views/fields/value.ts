/**
 * @module views/fields/value
 * A field's value as its widget edits it, and back: text for text, date and number boxes,
 * a boolean for a checkbox, a list of strings for chips, `{uri, label}` for a reference,
 * JSON text for anything else. Two edits are the same when their `sameEdit` says so, which
 * is how the editor knows what the user changed.
 */
import { textOf } from "../../text.js";
import { refUri, type FieldKind } from "./describe.js";

/** A reference as the picker holds it: the URI sent, the name shown. */
export interface RefValue {
  uri: string;
  label: string;
}

/** What a widget edits. */
export type Edit = string | boolean | string[] | RefValue | null;

/** The edit of a stored value. */
export function editOf(kind: FieldKind, stored: unknown): Edit {
  switch (kind) {
    case "boolean":
      return stored === true;
    case "list":
      return Array.isArray(stored) ? stored.filter((e): e is string => typeof e === "string") : typeof stored === "string" && stored ? [stored] : [];
    case "reference": {
      const uri = refUri(stored) ?? (typeof stored === "string" && stored ? stored : undefined);
      if (!uri) return null;
      const shown = refUri(stored) !== undefined ? textOf((stored as { display_value?: unknown }).display_value) : "";
      return { uri, label: shown || uri };
    }
    case "date":
      // A timestamp shows as its day in the date box; anything else as the text it is.
      return typeof stored === "string" ? (/^\d{4}-\d{2}-\d{2}/.test(stored) ? stored.slice(0, 10) : stored) : textOf(stored);
    case "json":
      return stored === null || stored === undefined ? "" : JSON.stringify(stored, null, 1);
    default:
      return textOf(stored);
  }
}

/** True when two edits hold the same value. */
export function sameEdit(a: Edit, b: Edit): boolean {
  return _key(a) === _key(b);
}

/**
 * The value to send for an edit, or the reason it cannot be sent. Empty text is null
 * (unset); a date keeps the time of a stored timestamp when only the time was shown.
 */
export function valueOf(kind: FieldKind, edit: Edit, stored: unknown): { value?: unknown; error?: string } {
  switch (kind) {
    case "boolean":
      return { value: edit === true };
    case "list":
      return { value: Array.isArray(edit) ? edit : [] };
    case "reference":
      return { value: edit && typeof edit === "object" && !Array.isArray(edit) ? edit.uri : null };
    case "number": {
      const text = String(edit ?? "").trim();
      if (text === "") return { value: null };
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: "expected a number, such as 12 or 12.50" };
    }
    case "json": {
      const text = String(edit ?? "").trim();
      if (text === "") return { value: null };
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: "not valid JSON (this field holds structured data, e.g. {\"lat\": 51.5, \"lon\": -0.1})" };
      }
    }
    case "date": {
      const text = String(edit ?? "");
      if (text === "") return { value: null };
      if (typeof stored === "string" && stored.startsWith(text) && stored.length > 10) return { value: stored };
      return { value: text };
    }
    default: {
      const text = String(edit ?? "");
      // A number or boolean the type held stays one when typed back as one.
      if (typeof stored === "number" && text.trim() !== "" && Number.isFinite(Number(text))) return { value: Number(text) };
      return { value: text === "" ? null : text };
    }
  }
}

// --- internal ---

function _key(e: Edit): string {
  if (e && typeof e === "object" && !Array.isArray(e)) return `ref:${e.uri}`;
  return JSON.stringify(e ?? "");
}
