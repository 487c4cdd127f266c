/**
 * @module testing/change-log
 * Conformance of `ChangeLog`: the feed's rows, ids, pages and purge (change-feed.ts), and
 * the history audit reads, with each change's attribution (change-history.ts).
 */
import { describeChanges } from "./change-feed.js";
import { describeChangeHistory } from "./change-history.js";
import type { Harness } from "./harness.js";

/** Declares the `ChangeLog` tests. */
export function describeChangeLog(h: Harness): void {
  describeChanges(h);
  describeChangeHistory(h);
}
