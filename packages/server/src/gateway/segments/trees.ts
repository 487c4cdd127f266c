/**
 * @module gateway/segments/trees
 * Segments nested by `parent_segment` (spec v2-gateway 7, `trees`; the nesting is our
 * choice): roots are segments without a parent or whose parent is missing or deleted, each
 * with its descendants under `children`, by name at every level. A segment appears once even
 * when parents loop: a loop with no root is entered at its first segment by name.
 */
import type { StoredRecord } from "@records-service/core";
import { refOf, uriOf } from "../read-all.js";

/** A segment with its children, nested. */
export interface SegmentTree {
  segment: StoredRecord;
  children: SegmentTree[];
}

/**
 * The forest of `segments` (the live ones to show), roots and children ordered by name
 * then id.
 *
 * @example
 * segmentForest([root, child]) // [{ segment: root, children: [{ segment: child, children: [] }] }]
 */
export function segmentForest(segments: readonly StoredRecord[]): SegmentTree[] {
  const sorted = [...segments].sort(byName);
  const byUri = new Map(sorted.map((s) => [uriOf(s), s]));
  const children = new Map<string, StoredRecord[]>();
  const roots: StoredRecord[] = [];
  for (const s of sorted) {
    const parent = refOf(s.data.parent_segment);
    if (parent === undefined || parent === uriOf(s) || !byUri.has(parent)) roots.push(s);
    else children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const seen = new Set<string>();
  const grow = (s: StoredRecord): SegmentTree => {
    seen.add(uriOf(s));
    const kids = (children.get(uriOf(s)) ?? []).filter((k) => !seen.has(uriOf(k)));
    // Marked before descending, so a loop below stops at the segment already placed.
    for (const k of kids) seen.add(uriOf(k));
    return { segment: s, children: kids.map((k) => grow(k)) };
  };
  const forest = roots.map(grow);
  for (const s of sorted) if (!seen.has(uriOf(s))) forest.push(grow(s));
  return forest.sort((a, b) => byName(a.segment, b.segment));
}

/** Orders segments by name (case ignored), then id. */
export function byName(a: StoredRecord, b: StoredRecord): number {
  const x = typeof a.data.name === "string" ? a.data.name.toLowerCase() : "";
  const y = typeof b.data.name === "string" ? b.data.name.toLowerCase() : "";
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
