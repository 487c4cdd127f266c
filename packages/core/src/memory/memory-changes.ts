/**
 * @module memory/memory-changes
 * The in-memory adapter's change log: per flock, the head id, the purge mark and the kept
 * rows in id order. One process owns it, so ids are in commit order by construction.
 */
import type { Attribution } from "../model/attribution.js";
import { byFlock, changeOf, loggedChange, type PendingChange } from "../changes/change-of.js";
import { changePurgeWindowEnd } from "../changes/purge-window.js";
import type { RecordState } from "../model/query.js";
import type { ChangeSet } from "../model/change-set.js";
import type { ChangeRow } from "../model/change.js";
import type { ChangeHistoryPage, ChangeHistoryQuery, ChangePage } from "../storage/change-log.js";

/** The memory adapter's change log. */
export interface MemoryChangeLog {
  /** The changes `changes` makes (an update's fields as the engine decided them). */
  pending(changes: ChangeSet): PendingChange[];
  /** Appends (after the change set was written), each row with the set's attribution. */
  append(pending: readonly PendingChange[], attribution?: Attribution): void;
  read(flock: string, after: number, limit: number, types?: readonly string[]): ChangePage;
  /** The heads of those flocks that have a log. */
  heads(flocks: readonly string[]): Map<string, number>;
  history(flock: string, query: ChangeHistoryQuery): ChangeHistoryPage;
  purge(before: string, limit?: number): number;
}

/** An empty change log. */
export function createMemoryChangeLog(): MemoryChangeLog {
  const logs = new Map<string, { head: number; purgedThrough: number; rows: ChangeRow[] }>();
  const logOf = (flock: string) => {
    let log = logs.get(flock);
    if (!log) logs.set(flock, (log = { head: 0, purgedThrough: 0, rows: [] }));
    return log;
  };
  return {
    pending(changes) {
      return (changes.records ?? []).map(changeOf);
    },
    append(pending, attribution) {
      for (const [flock, group] of byFlock(pending)) {
        const log = logOf(flock);
        for (const c of group) log.rows.push(loggedChange(++log.head, structuredClone(c), attribution));
      }
    },
    read(flock, after, limit, types) {
      const log = logs.get(flock);
      if (!log) return { changes: [], head: 0, purgedThrough: 0 };
      const wanted = types && types.length > 0 ? new Set(types) : undefined;
      const out: ChangeRow[] = [];
      for (let i = _firstAfter(log.rows, after); i < log.rows.length && out.length < limit; i++) {
        const row = log.rows[i]!;
        if (!wanted || wanted.has(row.type)) out.push(structuredClone(row));
      }
      return { changes: out, head: log.head, purgedThrough: log.purgedThrough };
    },
    heads(flocks) {
      const out = new Map<string, number>();
      for (const f of flocks) {
        const log = logs.get(f);
        if (log) out.set(f, log.head);
      }
      return out;
    },
    history(flock, query) {
      const rows = logs.get(flock)?.rows ?? [];
      const ofRecord = (r: ChangeRow) =>
        (query.type === undefined || r.type === query.type) && (query.recordId === undefined || r.recordId === query.recordId);
      const matching = rows.filter(
        (r) => ofRecord(r) && (query.from === undefined || r.changedAt >= query.from) && (query.to === undefined || r.changedAt < query.to),
      );
      // The previous kept state of each record, walking the log in id order.
      const previous = new Map<ChangeRow, RecordState | null>();
      const last = new Map<string, RecordState>();
      for (const r of rows) {
        const key = `${r.type}/${r.recordId}`;
        previous.set(r, last.get(key) ?? null);
        last.set(key, r.state);
      }
      const page = matching
        .reverse()
        .slice(query.skip, query.skip + Math.max(0, query.limit))
        .map((r) => ({ ...structuredClone(r), previousState: previous.get(r) ?? null }));
      const out: ChangeHistoryPage = { changes: page, total: matching.length };
      if (query.recordId !== undefined) {
        const first = rows.find(ofRecord);
        if (first) out.oldest = structuredClone(first);
      }
      return out;
    },
    purge(before, limit = Infinity) {
      let removed = 0;
      for (const [, log] of [...logs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        // The last old change in the purge window (ids are contiguous after the mark).
        const end = changePurgeWindowEnd(log.purgedThrough, limit - removed);
        let last = -1;
        for (let i = 0; i < log.rows.length && log.rows[i]!.id <= end; i++) if (log.rows[i]!.changedAt < before) last = i;
        const n = last + 1;
        if (n <= 0) continue;
        log.purgedThrough = log.rows[n - 1]!.id;
        log.rows.splice(0, n);
        removed += n;
      }
      return removed;
    },
  };
}

// --- internal ---

/** Index of the first row whose id is above `after` (rows are in id order). */
function _firstAfter(rows: readonly ChangeRow[], after: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.id <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
