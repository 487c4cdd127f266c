/**
 * @module protection/application-counts
 * Requests counted per calling application (the `APPLICATION` header's label) since the
 * process started, for operators (`GET /api/v1/_stats/applications/`). Counts live in
 * memory: the access log already records every request's application durably, so these
 * only answer "who is calling right now" without a log query. The number of distinct
 * labels is capped; past the cap, new labels are counted together as `(other)`.
 */
import { formatTimestamp, type Clock } from "@records-service/core";

/** Most distinct application labels counted one by one. */
export const APPLICATION_COUNTS_MAX_LABELS = 1000;
/** The label that collects applications beyond the cap. */
export const OTHER_APPLICATIONS = "(other)";

/** One application's count. */
export interface ApplicationCount {
  application: string;
  requests: number;
  /** Timestamp (spec format) of its latest request. */
  last_seen: string;
}

/** What operators see. */
export interface ApplicationStats {
  /** When counting started (the process start, in practice). */
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
  snapshot(): ApplicationStats;
}

/**
 * A fresh set of counters.
 *
 * @example
 * const counts = createApplicationCounts({ clock: systemClock });
 * counts.record("Acme/Sync/1.0"); counts.record(null);
 * counts.snapshot() // { total: 2, unattributed: 1, applications: [{ application: "Acme/Sync/1.0", requests: 1, ... }] }
 */
export function createApplicationCounts(options: { clock: Clock; maxLabels?: number }): ApplicationCounts {
  const { clock } = options;
  const maxLabels = options.maxLabels ?? APPLICATION_COUNTS_MAX_LABELS;
  const since = formatTimestamp(clock.now());
  const byLabel = new Map<string, { requests: number; lastSeen: number }>();
  let total = 0;
  let unattributed = 0;
  return {
    record(label) {
      total += 1;
      if (label === null) {
        unattributed += 1;
        return;
      }
      const key = byLabel.has(label) || byLabel.size < maxLabels ? label : OTHER_APPLICATIONS;
      const entry = byLabel.get(key) ?? { requests: 0, lastSeen: 0 };
      entry.requests += 1;
      entry.lastSeen = clock.now().getTime();
      byLabel.set(key, entry);
    },
    snapshot() {
      const applications = [...byLabel]
        .map(([application, e]) => ({ application, requests: e.requests, last_seen: formatTimestamp(new Date(e.lastSeen)) }))
        .sort((a, b) => b.requests - a.requests || (a.application < b.application ? -1 : a.application > b.application ? 1 : 0));
      return { since, total, unattributed, applications };
    },
  };
}
