/**
 * @module changes/feed
 * `engine.changes(flock, { since })`: the flock's committed changes after a position, as an
 * async iterator that first replays what is stored and then follows new commits. While idle
 * it waits on the process's change hub (one watcher for every feed, see `changes/hub`), which
 * wakes it only when its own flock's head moved; it then reads one bounded page. A filtered
 * feed moves its position past the changes it skips (to the head read with a short page),
 * so it never reads them again.
 */
import { badRequest, notFound, RecordsError } from "../errors.js";
import { recordUri } from "../schema/references.js";
import type { ChangeRow } from "../model/change.js";
import type { ChangeLog, ChangePage } from "../storage/change-log.js";
import type { FlockStore } from "../storage/flock-store.js";
import type { RecordState } from "../model/query.js";
import { createChangeHub, sharedChangeHub, type ChangeHub, type ChangeWatchStore } from "./hub.js";

/** What a feed reads: the flock, its changes, and what its hub watches. */
export type ChangeFeedStore = ChangeWatchStore & Pick<ChangeLog, "readChanges"> & Pick<FlockStore, "getFlock">;

/** One change as the feed serves it (the SSE event's `id` and `data`). */
export interface ChangeEvent {
  /** Per flock, in commit order, with no gap: resume after it. */
  id: number;
  data: {
    uri: string;
    resource_type: string;
    state: RecordState;
    version: number;
    changed_at: string;
    fields: string[];
  };
}

/** Options of `engine.changes`. */
export interface ChangesOptions {
  /** Replay the changes after this id (default: only changes committed from now on). */
  since?: number;
  /** Only these resource types. */
  types?: readonly string[];
  /** Ends the iteration (a wait in progress returns at once). */
  signal?: AbortSignal;
  /** Changes read per query (default 200). */
  batch?: number;
  /** The watcher to wait on (default: the one every feed of the Storage shares). */
  hub?: ChangeHub;
  /**
   * Runs after every wake, before the read; a rejection ends the iteration with that error
   * (the server re-checks the feed's credential here).
   */
  beforeRead?: () => Promise<void>;
  /** With `wait`: a hub of this feed's own, looking for commits this often (ms; default 200). */
  pollMs?: number;
  /** Waits `ms` or until `signal` aborts (injected in tests): the feed gets a hub of its own. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Default batch size of the feed. */
const CHANGES_BATCH = 200;

/**
 * The flock's changes after `opts.since` (or after the present head), following new
 * commits until `signal` aborts. Throws `not_found` for an unknown flock, `gone` (410) when
 * `since` is older than the oldest change kept, `bad_request` when it is ahead of the feed.
 * The checks run before the first change is yielded, so a caller can answer them.
 *
 * @example
 * for await (const change of engine.changes("demo", { since: 41 })) console.log(change.id, change.data.uri);
 */
export async function* followChanges(storage: ChangeFeedStore, flock: string, opts: ChangesOptions = {}): AsyncGenerator<ChangeEvent> {
  const start = await openChanges(storage, flock, opts);
  yield* start.follow();
}

/** An opened feed: its position checked, ready to follow (see `followChanges`). */
export interface OpenedChanges {
  /** The id the feed resumes after. */
  after: number;
  /**
   * Where the feed is now: the last id its consumer took (asked for the next one after), or past it up to the head when the
   * changes after it were all skipped by the type filter. Resuming after it misses nothing.
   */
  position(): number;
  follow(): AsyncGenerator<ChangeEvent>;
}

/** Checks the position (the errors of `followChanges`) and returns the feed to follow. */
export async function openChanges(storage: ChangeFeedStore, flock: string, opts: ChangesOptions = {}): Promise<OpenedChanges> {
  if (!(await storage.getFlock(flock))) throw notFound("unknown flock", `flock '${flock}' does not exist`);
  const batch = opts.batch ?? CHANGES_BATCH;
  const types = opts.types && opts.types.length > 0 ? [...new Set(opts.types)] : undefined;
  const first = await storage.readChanges(flock, opts.since ?? 0, batch, types);
  const after = _checkedStart(flock, opts.since, first.head, first.purgedThrough);
  const state = { after };
  const hub = opts.hub ?? (opts.wait || opts.pollMs !== undefined ? createChangeHub(storage, _hubOptions(opts)) : sharedChangeHub(storage));
  const page: ChangePage = opts.since === undefined ? { ...first, changes: [] } : first;
  return {
    after,
    position: () => state.after,
    follow: () => _follow(storage, hub, flock, state, page, batch, types, opts),
  };
}

/** The feed event of a stored change. */
function toChangeEvent(row: ChangeRow): ChangeEvent {
  return {
    id: row.id,
    data: {
      uri: recordUri(row.flock, row.type, row.recordId),
      resource_type: row.type,
      state: row.state,
      version: row.version,
      changed_at: row.changedAt,
      fields: row.fields,
    },
  };
}

// --- internal ---

function _checkedStart(flock: string, since: number | undefined, head: number, purgedThrough: number): number {
  if (since === undefined) return head;
  if (!Number.isSafeInteger(since) || since < 0) throw badRequest("invalid since", `since must be a change id (an integer, 0 or more), not ${since}`);
  if (since < purgedThrough) {
    throw new RecordsError(
      "gone",
      "changes no longer kept",
      `changes of flock '${flock}' up to id ${purgedThrough} were purged (older than the retention); the oldest id kept is ${purgedThrough + 1}: resume from there after reloading`,
    );
  }
  if (since > head) throw badRequest("invalid since", `since ${since} is ahead of the feed: the last change of flock '${flock}' is ${head}`);
  return since;
}

async function* _follow(
  storage: ChangeFeedStore,
  hub: ChangeHub,
  flock: string,
  state: { after: number },
  firstPage: ChangePage,
  batch: number,
  types: readonly string[] | undefined,
  opts: ChangesOptions,
): AsyncGenerator<ChangeEvent> {
  const watch = hub.watch(flock);
  try {
    let page = firstPage;
    for (;;) {
      for (const row of page.changes) {
        if (opts.signal?.aborted) return;
        yield toChangeEvent(row);
        // Only once the consumer asks past it: while it holds the event (e.g. waiting for
        // room to send it) the position must not claim it, or a resume would skip it.
        state.after = row.id;
      }
      if (opts.signal?.aborted) return;
      if (page.changes.length < batch) {
        // Nothing more matched up to the head read with this page: skip what lies between.
        state.after = Math.max(state.after, page.head);
        await watch.next(state.after, opts.signal);
        if (opts.signal?.aborted) return;
      }
      await opts.beforeRead?.();
      const next = await storage.readChanges(flock, state.after, batch, types);
      if (state.after < next.purgedThrough) {
        // A reader slower than the retention: it cannot go on without a gap.
        throw new RecordsError("gone", "changes no longer kept", `changes of flock '${flock}' after ${state.after} were purged while being read`);
      }
      page = next;
    }
  } finally {
    watch.close();
  }
}

function _hubOptions(opts: ChangesOptions): { pollMs?: number; wait?: (ms: number, signal?: AbortSignal) => Promise<void> } {
  return { ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}), ...(opts.wait ? { wait: opts.wait } : {}) };
}
