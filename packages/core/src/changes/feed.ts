/**
 * @module changes/feed
 * `engine.changes(flock, { since })`: the flock's committed changes after a position, as an
 * async iterator that first replays what is stored and then follows new commits. It polls
 * the Storage (through its change generation when it has one, so an idle feed costs no
 * query); polling is what makes it correct across processes, as nothing is pushed.
 */
import { badRequest, notFound, RecordsError } from "../errors.js";
import { recordUri } from "../schema/references.js";
import type { ChangeRow, Storage } from "../storage/types.js";
import type { RecordState } from "../query/types.js";

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
  /** How often to look for new commits while idle, in ms (default 200). */
  pollMs?: number;
  /** Changes read per query (default 200). */
  batch?: number;
  /** Waits `ms` or until `signal` aborts (injected in tests; default a timer). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Default idle poll interval and batch size of the feed. */
export const CHANGES_POLL_MS = 200;
export const CHANGES_BATCH = 200;

/**
 * The flock's changes after `opts.since` (or after the present head), following new
 * commits until `signal` aborts. Throws `not_found` for an unknown flock, `gone` (410) when
 * `since` is older than the oldest change kept, `bad_request` when it is ahead of the feed.
 * The checks run before the first change is yielded, so a caller can answer them.
 *
 * @example
 * for await (const change of engine.changes("demo", { since: 41 })) console.log(change.id, change.data.uri);
 */
export async function* followChanges(storage: Storage, flock: string, opts: ChangesOptions = {}): AsyncGenerator<ChangeEvent> {
  const start = await openChanges(storage, flock, opts);
  yield* start.follow();
}

/** An opened feed: its position checked, ready to follow (see `followChanges`). */
export interface OpenedChanges {
  /** The id the feed resumes after. */
  after: number;
  follow(): AsyncGenerator<ChangeEvent>;
}

/** Checks the position (the errors of `followChanges`) and returns the feed to follow. */
export async function openChanges(storage: Storage, flock: string, opts: ChangesOptions = {}): Promise<OpenedChanges> {
  if (!(await storage.getFlock(flock))) throw notFound("unknown flock", `flock '${flock}' does not exist`);
  const batch = opts.batch ?? CHANGES_BATCH;
  const types = opts.types && opts.types.length > 0 ? opts.types : undefined;
  const first = await storage.readChanges(flock, opts.since ?? 0, batch, types);
  const after = _checkedStart(flock, opts.since, first.head, first.purgedThrough);
  return {
    after,
    follow: () => _follow(storage, flock, after, opts.since === undefined ? [] : first.changes, batch, types, opts),
  };
}

/** The feed event of a stored change. */
export function toChangeEvent(row: ChangeRow): ChangeEvent {
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
  storage: Storage,
  flock: string,
  start: number,
  firstPage: ChangeRow[],
  batch: number,
  types: readonly string[] | undefined,
  opts: ChangesOptions,
): AsyncGenerator<ChangeEvent> {
  const wait = opts.wait ?? _wait;
  const pollMs = opts.pollMs ?? CHANGES_POLL_MS;
  let after = start;
  let page = firstPage;
  let full = firstPage.length >= batch;
  let seenGeneration: number | undefined;
  for (;;) {
    for (const row of page) {
      if (opts.signal?.aborted) return;
      after = row.id;
      yield toChangeEvent(row);
    }
    if (opts.signal?.aborted) return;
    if (!full) {
      // Idle: wait, then query only if something may have been written since the last read.
      await wait(pollMs, opts.signal);
      if (opts.signal?.aborted) return;
      const g = storage.changeGeneration?.();
      if (g !== undefined && g === seenGeneration) {
        page = [];
        continue;
      }
      seenGeneration = g;
    }
    const next = await storage.readChanges(flock, after, batch, types);
    if (after < next.purgedThrough) {
      // A reader slower than the retention: it cannot go on without a gap.
      throw new RecordsError("gone", "changes no longer kept", `changes of flock '${flock}' after ${after} were purged while being read`);
    }
    page = next.changes;
    full = page.length >= batch;
  }
}

function _wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
