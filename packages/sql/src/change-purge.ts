/**
 * @module change-purge
 * The decisions of a purge that both adapters make the same way: how many records of each
 * state a purge chunk takes off a collection's kept counts. (The change feed's purge cut,
 * which the memory adapter shares too, is core's `changePurgeWindowEnd`.)
 */

/**
 * The removed records' states counted, in state order: what `collection_counts` loses.
 *
 * @example
 * removedByState(["updated", "deleted", "updated"]) // [["deleted", 1], ["updated", 2]]
 */
export function removedByState(states: Iterable<string>): [state: string, n: number][] {
  const byState = new Map<string, number>();
  for (const s of states) byState.set(s, (byState.get(s) ?? 0) + 1);
  return [...byState].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
