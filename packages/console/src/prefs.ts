/**
 * @module prefs
 * What a person chose in the console and expects to find again (the columns of a list),
 * kept in local storage per flock and type. Unreadable or foreign values are ignored.
 */

/** The columns chosen for a list, or undefined when none were chosen yet. */
export function chosenColumns(flock: string, type: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(_key(flock, type)) ?? "null");
    return Array.isArray(v) && v.every((c) => typeof c === "string") ? (v as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the columns of a list. */
export function chooseColumns(flock: string, type: string, columns: readonly string[]): void {
  try {
    localStorage.setItem(_key(flock, type), JSON.stringify(columns));
  } catch {
    // Storage full or refused (private mode): the choice lasts for this page only.
  }
}

// --- internal ---

function _key(flock: string, type: string): string {
  return `records-console.columns.${flock}.${type}`;
}
