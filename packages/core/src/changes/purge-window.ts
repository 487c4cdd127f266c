/**
 * @module purge-window
 * The change feed's purge cut, the one rule every adapter (memory, SQLite, PostgreSQL)
 * follows: a flock's kept ids are contiguous after its purge mark, so the next `budget`
 * changes are the key range up to `changePurgeWindowEnd`, and the cut is the last change
 * older than the purge time within it; everything up to the cut goes.
 */

/**
 * The last id a purge may look at in a flock whose purge mark is `purgedThrough`, when
 * `budget` more changes may go (never past the largest safe integer).
 *
 * @example
 * changePurgeWindowEnd(100, 50) // 150: the cut is the newest expired change in (100, 150]
 */
export function changePurgeWindowEnd(purgedThrough: number, budget: number): number {
  return purgedThrough + Math.max(0, Math.min(budget, Number.MAX_SAFE_INTEGER - purgedThrough));
}
