/**
 * @module group-commit
 * Group commit for `apply`. A create costs little in statements and much in its commit:
 * the commit writes every page the transaction dirtied to the write-ahead log (about 45
 * pages for a person with its value index and its data event, docs/performance.md), and
 * most of those pages (the tables' last pages, the counts, the indexes' inner pages) are
 * the same for the next create. So the change sets applied during one turn of the event
 * loop (the requests that arrived together) are applied in one transaction, each in its
 * own savepoint: each stays all-or-nothing and fails alone, and the group shares one
 * commit. A change set applied on its own (nothing else in the turn) commits on its own,
 * one turn later. Every promise settles only after its commit.
 */
import { setImmediate } from "node:timers"; // the real one, whatever a test's fake timers replace
import type { ChangeSet } from "@records-service/core";
import type Database from "better-sqlite3";

/** The grouped `apply` and what it did. */
export interface GroupCommit {
  /** Applies `changes` in the next group; resolves once committed, rejects with its own error. */
  apply(changes: ChangeSet): Promise<void>;
  /** Applies what is waiting now (before the connection closes). */
  flush(): void;
  /** Transactions committed and change sets applied so far (tests, the bench). */
  stats(): { commits: number; changeSets: number };
}

/**
 * Groups the calls of `applyOne` (a synchronous applier whose transaction nests as a
 * savepoint) made in one turn into one transaction of `client`. `onGroupFailure` is called
 * when a group's own commit fails (every change set of it is then rejected).
 *
 * @example
 * const group = createGroupCommit(db.$client, createApplier(db, catalog), () => catalog.forget());
 * await Promise.all([group.apply(a), group.apply(b)]); // one commit
 */
export function createGroupCommit(client: Database.Database, applyOne: (changes: ChangeSet) => void, onGroupFailure: () => void): GroupCommit {
  let waiting: _Pending[] = [];
  let commits = 0;
  let changeSets = 0;
  // IMMEDIATE: the group takes the write lock at its start, so it never has to upgrade a
  // read lock that another process's writer holds up (SQLITE_BUSY without waiting).
  const group = client.transaction((pending: _Pending[]) => {
    for (const p of pending) {
      try {
        applyOne(p.changes); // a savepoint inside the group's transaction
      } catch (e) {
        p.error = e;
        p.failed = true;
      }
    }
  }).immediate;

  const flush = (): void => {
    const pending = waiting;
    waiting = [];
    if (pending.length === 0) return;
    try {
      if (pending.length === 1) {
        try {
          applyOne(pending[0]!.changes);
        } catch (e) {
          pending[0]!.error = e;
          pending[0]!.failed = true;
        }
      } else group(pending);
      commits += 1;
      changeSets += pending.length;
    } catch (e) {
      // The commit itself failed (disk full, a lock held too long): nothing of the group is stored.
      onGroupFailure();
      for (const p of pending) {
        p.error = e;
        p.failed = true;
      }
    }
    for (const p of pending) {
      if (p.failed) p.reject(p.error);
      else p.resolve();
    }
  };

  return {
    apply: (changes) =>
      new Promise<void>((resolve, reject) => {
        if (waiting.length === 0) setImmediate(flush);
        waiting.push({ changes, resolve, reject, failed: false, error: undefined });
      }),
    flush,
    stats: () => ({ commits, changeSets }),
  };
}

// --- internal ---

interface _Pending {
  changes: ChangeSet;
  resolve(): void;
  reject(e: unknown): void;
  failed: boolean;
  error: unknown;
}
