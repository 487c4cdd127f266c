/**
 * @module change-watch
 * One number that moves whenever the database may have changed, for caches of things read
 * from it (the account cache, the server's serialized responses). `total_changes()` moves
 * when this connection writes (asked only after a statement that may write ran, where the
 * connection counts them, write-count; else on every call), `PRAGMA data_version` when
 * another connection (another server process, the CLI's `user add`) commits. The pragma costs as much as a small lookup, so `generation` asks it at most
 * every `recheckMs` (25 ms), and `sync` asks it at once: the server syncs at the start of
 * every request, so a read after another process's acknowledged commit never meets an
 * entry cached before it (the commit moved `data_version` before it was acknowledged).
 */
import type Database from "better-sqlite3";
import { writeCount } from "./write-count.js";

/** Options of `createChangeWatch`; tests inject the time. */
export interface ChangeWatchOptions {
  /** How long another connection's commit may go unseen, in ms. Default 25. */
  recheckMs?: number;
  /** A monotonic clock in ms. Default `performance.now`. */
  now?: () => number;
}

/** The database's change generation. */
export interface ChangeWatch {
  /** A counter that grows by one each time a change is noticed. */
  generation(): number;
  /** Looks for other connections' commits now (see the module comment). */
  sync(): void;
  /**
   * Runs `fn` (a write nothing caches: limit rows) so that its changes on this connection do
   * not move the generation; a throttled request would otherwise empty every cache.
   */
  unwatched<R>(fn: () => R): R;
}

/**
 * Watches one connection's database for changes.
 *
 * @example
 * const watch = createChangeWatch(db.$client);
 * const g = watch.generation(); // ... later: watch.generation() !== g once anything was written
 */
export function createChangeWatch(client: Database.Database, opts: ChangeWatchOptions = {}): ChangeWatch {
  const recheckMs = opts.recheckMs ?? 25;
  const now = opts.now ?? (() => performance.now());
  const selChanges = client.prepare<[], number>("SELECT total_changes()").pluck();
  // total_changes() moves only by a statement the count sees: asked again only when it moved.
  const writes = writeCount(client);
  let writesSeen = -1;
  let total = 0;
  const totalChanges = (): number => {
    if (!writes) return selChanges.get()!;
    const w = writes();
    if (w !== writesSeen) {
      writesSeen = w;
      total = selChanges.get()!;
    }
    return total;
  };
  const selVersion = client.prepare<[], number>("PRAGMA data_version").pluck();
  let changes = -1;
  let version = -1;
  let checked = -Infinity;
  let generation = 0;
  // Changes made by `unwatched` writes: left out of `total_changes()`.
  let excused = 0;

  const look = (force: boolean): number => {
    const c = totalChanges() - excused;
    let v = version;
    const t = now();
    if (force || t - checked >= recheckMs) {
      v = selVersion.get()!;
      checked = t;
    }
    if (c !== changes || v !== version) {
      changes = c;
      version = v;
      generation += 1;
    }
    return generation;
  };

  return {
    generation: () => look(false),
    sync: () => void look(true),
    unwatched(fn) {
      const before = totalChanges();
      try {
        return fn();
      } finally {
        excused += totalChanges() - before;
      }
    },
  };
}
