/**
 * @module indexes
 * The value index's rows as the Indexes page shows them: the status in words with its
 * progress, who may change a row, and whether the page must look again (a back-fill or a
 * removal under way moves without a change in the flock's feed).
 */

/** One field's index, as `GET /api/v1/{flock}/_indexes/` answers it. */
export interface IndexView {
  type: string;
  field: string;
  status: string;
  source: string;
  /** The flock, or `*` when the config's row for every flock rules the field. */
  flock: string;
  progress: number;
}

/**
 * The status in words: a field being built says how far (rounded down, so 100% only when done).
 *
 * @example
 * statusLabel({ status: "building", progress: 0.42 }) // "building 42%"
 */
export function statusLabel(v: Pick<IndexView, "status" | "progress">): string {
  const pct = `${Math.floor(Math.min(1, Math.max(0, Number(v.progress) || 0)) * 100)}%`;
  if (v.status === "building") return `building ${pct}`;
  if (v.status === "dropped" && v.progress < 1) return `dropped, ${pct} removed`;
  return String(v.status);
}

/** True while something moves in the background: the page then looks again every few seconds. */
export function isMoving(views: readonly IndexView[]): boolean {
  return views.some((v) => v.status === "building" || (v.status === "dropped" && v.progress < 1));
}

/** True when the flock has a row of its own for the field (an operator's or an earned one): reset hands it back. */
export function hasOwnRow(v: IndexView, flock: string): boolean {
  return v.source !== "default" && v.flock === flock;
}
