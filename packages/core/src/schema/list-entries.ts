/**
 * @module schema/list-entries
 * List field entries of the form `<value>;<label>` (email, telephone, connections), where a
 * `__primary` suffix on the label marks the entry to use first (`ada@example.org;work__primary`).
 */

/** One parsed entry. `label` is null when the entry has none. */
export interface ListEntry {
  value: string;
  label: string | null;
  primary: boolean;
}

/** The marker appended to a label to make its entry the primary one. */
const PRIMARY_MARKER = "__primary";

/**
 * Splits an entry at its first `;` (values such as emails and URIs hold none).
 *
 * @example
 * parseEntry("ada@example.org;work__primary") // { value: "ada@example.org", label: "work", primary: true }
 */
export function parseEntry(entry: string): ListEntry {
  const at = entry.indexOf(";");
  if (at < 0) return { value: entry, label: null, primary: false };
  let label = entry.slice(at + 1);
  const primary = label.endsWith(PRIMARY_MARKER);
  if (primary) label = label.slice(0, -PRIMARY_MARKER.length);
  return { value: entry.slice(0, at), label: label === "" ? null : label, primary };
}

/**
 * The stored text of an entry; the inverse of `parseEntry`.
 *
 * @example
 * formatEntry({ value: "0123", label: "home", primary: false }) // "0123;home"
 */
export function formatEntry(entry: ListEntry): string {
  const label = (entry.label ?? "") + (entry.primary ? PRIMARY_MARKER : "");
  return label ? `${entry.value};${label}` : entry.value;
}

/**
 * The entry to use when one is wanted (e.g. where to send an email): the first one marked
 * primary, else the first entry; undefined for an empty or unset list.
 *
 * @example
 * primaryEntry(["a@x.org;home", "b@x.org;work__primary"])?.value // "b@x.org"
 */
export function primaryEntry(list: readonly unknown[] | null | undefined): ListEntry | undefined {
  const entries = (list ?? []).filter((e): e is string => typeof e === "string").map(parseEntry);
  return entries.find((e) => e.primary) ?? entries[0];
}
