/**
 * @module changes/hub
 * One watcher per Storage (so per process) for every open change feed: feeds wait on their
 * flock's head here instead of each polling the database. Every `pollMs` the hub asks the
 * Storage's change generation (a counter, no query: SQLite's `data_version` and its own
 * writes, PostgreSQL's LISTEN/NOTIFY) whether anything may have changed; only then does it
 * read the heads of the watched flocks, in one query, and wake the feeds of the flocks whose
 * head moved. So an idle feed costs nothing, a write in another flock costs one small
 * query per process (not per feed), and a feed reads only when its own flock was written.
 * Polling (of the generation, and of the heads when the Storage has no generation, or when
 * its notifications are not live) is what makes it correct across processes.
 */
import type { ChangeLog } from "../storage/change-log.js";
import type { Connection } from "../storage/connection.js";

/** What a hub watches: the change generation and the flocks' last change ids. */
export type ChangeWatchStore = Pick<Connection, "changeGeneration"> & Pick<ChangeLog, "readChangeHeads">;

/** Options of `createChangeHub`. */
export interface ChangeHubOptions {
  /** How often to look for commits while any feed waits, in ms (default `CHANGES_POLL_MS`, 200). */
  pollMs?: number;
  /** Waits `ms` or until `signal` aborts (injected in tests; default a timer). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A feed's hold on its flock's head. */
export interface HeadWatch {
  /**
   * Resolves once the flock's head is known to be above `after` (at once when it is
   * already), or when `signal` aborts.
   */
  next(after: number, signal?: AbortSignal): Promise<void>;
  /** Ends the hold; the hub stops watching a flock nobody holds. */
  close(): void;
}

/** What the hub did, for tests and operators. */
export interface ChangeHubStats {
  /** Flocks watched now. */
  flocks: number;
  /** Feeds waiting now. */
  waiting: number;
  /** Reads of the heads so far (each one query, whatever the number of feeds). */
  headReads: number;
}

/** The watcher (see the module comment). */
export interface ChangeHub {
  watch(flock: string): HeadWatch;
  stats(): ChangeHubStats;
}

/** Default idle poll interval of the feed (the hub's tick). */
const CHANGES_POLL_MS = 200;

/**
 * A hub over `storage`.
 *
 * @example
 * const hub = createChangeHub(storage);
 * const w = hub.watch("demo"); await w.next(41); // the flock's head passed 41
 * w.close();
 */
export function createChangeHub(storage: ChangeWatchStore, opts: ChangeHubOptions = {}): ChangeHub {
  const pollMs = opts.pollMs ?? CHANGES_POLL_MS;
  const wait = opts.wait ?? _wait;
  const entries = new Map<string, _Entry>();
  let running = false;
  let waiting = 0;
  let headReads = 0;
  /** The generation the last heads read started at; undefined: read at the next tick. */
  let seen: number | undefined;

  const tick = async (): Promise<void> => {
    let heads: Map<string, number>;
    try {
      const g = storage.changeGeneration();
      if (g !== undefined && g === seen) return;
      // Before the read: a commit during it moves the generation again, so it is read next tick.
      seen = g;
      headReads += 1;
      heads = await storage.readChangeHeads([...entries.keys()]);
    } catch {
      seen = undefined; // database unavailable (or closed): try again at the next tick
      return;
    }
    for (const [flock, head] of heads) {
      const e = entries.get(flock);
      if (!e || head <= e.head) continue;
      e.head = head;
      for (const w of e.waiters) if (w.after < head) w.wake();
    }
  };

  // Runs while any feed waits; a feed that is busy reading (or whose reader is slow) needs no tick.
  const loop = async (): Promise<void> => {
    running = true;
    try {
      while (waiting > 0) {
        await wait(pollMs);
        if (waiting > 0) await tick();
      }
    } finally {
      running = false;
    }
  };
  const start = () => {
    if (running) return;
    // Commits seen while nobody waited were not looked for in the flocks watched now.
    seen = undefined;
    void loop();
  };

  return {
    watch(flock) {
      let e = entries.get(flock);
      if (!e) {
        entries.set(flock, (e = { refs: 0, head: 0, waiters: new Set() }));
        // A commit seen at an earlier tick was not looked for in this flock.
        seen = undefined;
      }
      const entry = e;
      entry.refs += 1;
      let closed = false;
      return {
        next(after, signal) {
          if (closed || signal?.aborted || entry.head > after) return Promise.resolve();
          return new Promise<void>((resolve) => {
            const w: _Waiter = {
              after,
              wake: () => {
                if (!entry.waiters.delete(w)) return;
                waiting -= 1;
                signal?.removeEventListener("abort", w.wake);
                resolve();
              },
            };
            entry.waiters.add(w);
            waiting += 1;
            signal?.addEventListener("abort", w.wake, { once: true });
            start();
          });
        },
        close() {
          if (closed) return;
          closed = true;
          entry.refs -= 1;
          if (entry.refs === 0) {
            for (const w of entry.waiters) w.wake();
            entries.delete(flock);
          }
        },
      };
    },
    stats: () => ({
      flocks: entries.size,
      waiting,
      headReads,
    }),
  };
}

/**
 * The hub every feed of `storage` shares when none is given (one per Storage, so one per
 * process), created on first use.
 *
 * @example
 * sharedChangeHub(storage).watch("demo");
 */
export function sharedChangeHub(storage: ChangeWatchStore): ChangeHub {
  let hub = _shared.get(storage);
  if (!hub) _shared.set(storage, (hub = createChangeHub(storage)));
  return hub;
}

// --- internal ---

interface _Waiter {
  after: number;
  wake(): void;
}

interface _Entry {
  /** Open watches of the flock. */
  refs: number;
  /** The highest head read (0 until the first read). */
  head: number;
  waiters: Set<_Waiter>;
}

const _shared = new WeakMap<ChangeWatchStore, ChangeHub>();

function _wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
