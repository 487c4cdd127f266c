/**
 * @module bench/lib/load
 * What the HTTP load runs share: how many connections autocannon opens, and the outcome
 * of one run (requests per second is autocannon's mean over the run's seconds).
 */
import { availableParallelism } from "node:os";

/** One load run's outcome. */
export interface LoadResult {
  /** Mean requests per second (2xx and others alike; see `non2xx`). */
  rps: number;
  /** Median latency in ms. */
  p50: number;
  /** 99th-percentile latency in ms (absent from runs made before it was kept). */
  p99?: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** Connections used: 2 per core (issue 6). */
export function connections(): number {
  return 2 * availableParallelism();
}
