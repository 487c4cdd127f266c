/**
 * @module storage/change-log
 * The log of committed record changes: one row per record write, written by `apply` in
 * the same transaction. The change feed pages through it, audit reads a record's or a
 * flock's history from it, and the scheduler purges its old rows.
 */
import type { ChangeRow, HistoryChange } from "../model/change.js";

/** What `readChangeHistory` selects. */
export interface ChangeHistoryQuery {
  /** Only changes of records of this type. */
  type?: string;
  /** Only changes of this record (give `type` with it). */
  recordId?: string;
  /** Only changes whose `changedAt` is at or after this timestamp. */
  from?: string;
  /** Only changes whose `changedAt` is before this timestamp. */
  to?: string;
  /** Matching changes passed over, newest first, before the page starts. */
  skip: number;
  /** At most this many changes (0: only the total and, with `recordId`, the oldest). */
  limit: number;
}

/** What `readChangeHistory` answers. */
export interface ChangeHistoryPage {
  /** The page, newest first (id descending). */
  changes: HistoryChange[];
  /** How many kept changes match, `skip` and `limit` aside. */
  total: number;
  /**
   * With `recordId`: the record's oldest kept change, whatever the time filters (undefined
   * when none is kept), so a caller can tell whether the record's creation is still kept.
   */
  oldest?: ChangeRow;
}

/** What `readChanges` answers. */
export interface ChangePage {
  /** Up to `limit` changes after the given id, in id order. */
  changes: ChangeRow[];
  /** The last id assigned in the flock (0: none yet). */
  head: number;
  /** Changes with ids at or below this were purged (0: none). */
  purgedThrough: number;
}

/** The change log behind the change feed and audit. */
export interface ChangeLog {
  /**
   * The flock's changes with id above `after`, up to `limit`, in id order; with `types`,
   * only changes of those resource types (ids then skip the others), each type read by the
   * index (flock, type, id), so a page costs at most `limit` entries per type however many
   * changes of other types lie between. Also the flock's head and purge mark, read in the
   * same snapshot, so a caller can tell "nothing yet" from "purged", and a page shorter
   * than `limit` means nothing matching lies between `after` and the head.
   */
  readChanges(flock: string, after: number, limit: number, types?: readonly string[]): Promise<ChangePage>;
  /**
   * The head (last change id; 0: none yet) of each of `flocks`, read in one query (a flock
   * with no change, or none at all, is absent). The change feed's per-process watcher
   * reads it when the database may have changed, to wake only the feeds of flocks whose
   * head moved.
   */
  readChangeHeads(flocks: readonly string[]): Promise<Map<string, number>>;
  /**
   * Removes, per flock, the oldest changes up to the last one whose `changedAt` is before
   * `before` (so the kept ids stay contiguous) and moves the flock's purge mark to it.
   * With `limit`, removes at most that many in all (the oldest first, flocks in name
   * order), so one call holds the write lock briefly; call again for the rest. The cut is
   * then the last change before `before` among the flock's next `limit` kept ones (found
   * in a key range, whatever the backlog), so a purge walks the log in id order while it
   * meets old changes.
   * Returns how many were removed.
   */
  purgeChanges(before: string, limit?: number): Promise<number>;
  /**
   * The kept changes of `flock` matching `query`, newest first: a record's history, or the
   * flock's (audit). Each carries the state of its record's previous kept change. A
   * record's page is read by index (flock, type, record id, id); a flock's page walks its
   * log from the newest, and its total counts the kept changes that match.
   */
  readChangeHistory(flock: string, query: ChangeHistoryQuery): Promise<ChangeHistoryPage>;
}
