/**
 * @module protection/application-counts
 * Requests counted per calling application (the `APPLICATION` header's label), for
 * operators (`GET /api/v1/_stats/applications/`). The counts are the service's, not one
 * process's: each process adds its requests in memory and merges them into one row of the
 * database (`Storage.updateLimit`, atomic) at most every `flushMs` (1 s) and before every
 * snapshot, so a snapshot taken anywhere includes every request this process has counted
 * and other processes' requests up to their last merge (at most a second old). Requests
 * are not written one by one: that would make every request a write. The number of
 * distinct labels is capped; past the cap, new labels are counted together as `(other)`.
 * The row is kept a year after the last merge; the access log stays the durable record.
 */
import { formatTimestamp, type Clock, type Storage } from "@records-service/core";

/** Most distinct application labels counted one by one. */
const APPLICATION_COUNTS_MAX_LABELS = 1000;
/** The label that collects applications beyond the cap. */
export const OTHER_APPLICATIONS = "(other)";

/** One application's count. */
interface ApplicationCount {
  application: string;
  requests: number;
  /** Timestamp (spec format) of its latest request. */
  last_seen: string;
}

/** What operators see. */
export interface ApplicationStats {
  /** When counting started (the first request counted on this database, in practice). */
  since: string;
  total: number;
  /** Requests without a well-formed APPLICATION header. */
  unattributed: number;
  /** Most requests first; ties by name. */
  applications: ApplicationCount[];
}

export interface ApplicationCounts {
  /** Counts one request: `label` of an attributed caller, or null. */
  record(label: string | null): void;
  /** The service's counts, this process's pending ones merged first. */
  snapshot(): Promise<ApplicationStats>;
  /** Merges this process's pending counts into the database now (a failed merge keeps them for the next). */
  flush(): Promise<void>;
  /** Stops the timer and merges what is pending. */
  close(): Promise<void>;
}

/** Options of `createApplicationCounts`. */
export interface ApplicationCountsOptions {
  /** Where the counts live (shared by every process on the database). */
  storage: Storage;
  clock: Clock;
  maxLabels?: number;
  /** Longest time counted requests wait in memory before they are merged, in ms. Default 10,000. */
  flushMs?: number;
}

/**
 * The counters of this process over the service's row.
 *
 * @example
 * const counts = createApplicationCounts({ storage, clock: systemClock });
 * counts.record("Acme/Sync/1.0"); counts.record(null);
 * await counts.snapshot() // { total: 2, unattributed: 1, applications: [{ application: "Acme/Sync/1.0", requests: 1, ... }], ... }
 */
export function createApplicationCounts(options: ApplicationCountsOptions): ApplicationCounts {
  const { storage, clock } = options;
  const maxLabels = options.maxLabels ?? APPLICATION_COUNTS_MAX_LABELS;
  const flushMs = options.flushMs ?? 10_000;
  const started = clock.now().getTime();
  let pending = _empty(started);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.total === 0) return;
    const batch = pending;
    pending = _empty(batch.since);
    const now = clock.now().getTime();
    try {
      await storage.updateLimit(_KEY, now, (value) => ({
        value: JSON.stringify(_merge(_parse(value), batch, maxLabels)),
        expiresAt: now + _KEEP_MS,
      }));
    } catch (e) {
      // Kept for the next merge: a database that is briefly away loses no counts.
      pending = _merge(batch, pending, Infinity);
      if (!closed) timer ??= setTimeout(() => void flush().catch(() => {}), flushMs).unref();
      throw e;
    }
  };

  return {
    record(label) {
      pending.total += 1;
      if (label === null) pending.unattributed += 1;
      else {
        const key = Object.hasOwn(pending.apps, label) || Object.keys(pending.apps).length < maxLabels ? label : OTHER_APPLICATIONS;
        const entry = pending.apps[key] ?? [0, 0];
        entry[0] += 1;
        entry[1] = clock.now().getTime();
        pending.apps[key] = entry;
      }
      if (!timer && !closed) timer = setTimeout(() => void flush().catch(() => {}), flushMs).unref();
    },
    async snapshot() {
      await flush();
      const stored = _parse(await storage.updateLimit(_KEY, clock.now().getTime(), () => undefined)) ?? _empty(started);
      const applications = Object.entries(stored.apps)
        .map(([application, [requests, lastSeen]]) => ({ application, requests, last_seen: formatTimestamp(new Date(lastSeen)) }))
        .sort((a, b) => b.requests - a.requests || (a.application < b.application ? -1 : a.application > b.application ? 1 : 0));
      return { since: formatTimestamp(new Date(stored.since)), total: stored.total, unattributed: stored.unattributed, applications };
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}

// --- internal ---

/** The limit row holding the service's counts. */
const _KEY = "stats:applications";
/** The row is forgotten a year after the last merge. */
const _KEEP_MS = 366 * 24 * 60 * 60_000;

/** Counts as stored (and as pending): per label `[requests, last seen (epoch ms)]`. */
interface _Counts {
  since: number;
  total: number;
  unattributed: number;
  apps: Record<string, [number, number]>;
}

function _empty(since: number): _Counts {
  return { since, total: 0, unattributed: 0, apps: {} };
}

/** `base` plus `add`; labels new to `base` beyond `maxLabels` go to `(other)`. */
function _merge(base: _Counts | undefined, add: _Counts, maxLabels: number): _Counts {
  const out: _Counts = base
    ? { since: Math.min(base.since, add.since), total: base.total, unattributed: base.unattributed, apps: { ...base.apps } }
    : _empty(add.since);
  out.total += add.total;
  out.unattributed += add.unattributed;
  for (const [label, [requests, lastSeen]] of Object.entries(add.apps)) {
    const known = Object.hasOwn(out.apps, label);
    const key = known || Object.keys(out.apps).length < maxLabels ? label : OTHER_APPLICATIONS;
    const entry = out.apps[key] ?? [0, 0];
    out.apps[key] = [entry[0] + requests, Math.max(entry[1], lastSeen)];
  }
  return out;
}

function _parse(value: string | undefined): _Counts | undefined {
  if (value === undefined) return undefined;
  const c = JSON.parse(value) as Partial<_Counts>;
  return {
    since: Number(c.since) || 0,
    total: Number(c.total) || 0,
    unattributed: Number(c.unattributed) || 0,
    apps: c.apps && typeof c.apps === "object" ? c.apps : {},
  };
}
