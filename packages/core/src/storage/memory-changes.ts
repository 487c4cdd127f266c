/**
 * @module storage/memory-changes
 * The in-memory adapter's change log: per flock, the head id, the purge mark and the kept
 * rows in id order. One process owns it, so ids are in commit order by construction.
 */
import { byFlock, changeOf, type PendingChange } from "../changes/change-of.js";
import type { ChangePage, ChangeRow, ChangeSet, StoredRecord } from "./types.js";

/** The memory adapter's change log. */
export interface MemoryChangeLog {
  /** The changes `changes` makes, given the stored records before it is written. */
  pending(changes: ChangeSet, stored: (id: string) => StoredRecord | undefined): PendingChange[];
  /** Appends (after the change set was written). */
  append(pending: readonly PendingChange[]): void;
  read(flock: string, after: number, limit: number, types?: readonly string[]): ChangePage;
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
    pending(changes, stored) {
      // A record written twice in one set: the second write's "before" is the first's data.
      const seen = new Map<string, Record<string, unknown>>();
      return (changes.records ?? []).map((w) => {
        const before = w.kind === "insert" ? undefined : (seen.get(w.record.id) ?? stored(w.record.id)?.data);
        seen.set(w.record.id, w.record.data);
        return changeOf(w.record, before);
      });
    },
    append(pending) {
      for (const [flock, group] of byFlock(pending)) {
        const log = logOf(flock);
        for (const c of group) log.rows.push({ id: ++log.head, ...structuredClone(c) });
      }
    },
    read(flock, after, limit, types) {
      const log = logs.get(flock);
      if (!log) return { changes: [], head: 0, purgedThrough: 0 };
      const wanted = types && types.length > 0 ? new Set(types) : undefined;
      const out: ChangeRow[] = [];
      for (const row of log.rows) {
        if (out.length >= limit) break;
        if (row.id <= after || (wanted && !wanted.has(row.type))) continue;
        out.push(structuredClone(row));
      }
      return { changes: out, head: log.head, purgedThrough: log.purgedThrough };
    },
    purge(before, limit = Infinity) {
      let removed = 0;
      for (const [, log] of [...logs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        let last = -1;
        for (const [i, row] of log.rows.entries()) if (row.changedAt < before) last = i;
        const n = Math.min(last + 1, limit - removed);
        if (n <= 0) continue;
        log.purgedThrough = log.rows[n - 1]!.id;
        log.rows.splice(0, n);
        removed += n;
      }
      return removed;
    },
  };
}
