/**
 * @module bench/lib/load
 * HTTP load with autocannon, run as its own process (so the load generator's work never
 * shares an event loop with a server or the runner): a short untimed warm-up, then the
 * timed run; requests per second is autocannon's mean over the run's seconds.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { runToEnd } from "./proc.js";

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

/** What to send. */
export interface LoadRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

/** Connections used: 2 per core (issue 6). */
export function connections(): number {
  return 2 * availableParallelism();
}

/** Warms up for `warmupSec`, then loads `req` for `durationSec` and returns the timed run. */
export async function load(root: string, req: LoadRequest, durationSec: number, warmupSec: number): Promise<LoadResult> {
  if (warmupSec > 0) await _run(root, req, warmupSec);
  return _run(root, req, durationSec);
}

// --- internal ---

async function _run(root: string, req: LoadRequest, seconds: number): Promise<LoadResult> {
  const args = [join(root, "node_modules", "autocannon", "autocannon.js"), "-c", String(connections()), "-d", String(seconds), "-j"];
  if (req.method) args.push("-m", req.method);
  for (const [k, v] of Object.entries(req.headers ?? {})) args.push("-H", `${k}=${v}`);
  if (req.body !== undefined) args.push("-b", req.body);
  args.push(req.url);
  const r = await runToEnd(process.execPath, args, { timeoutMs: (seconds + 60) * 1000 });
  if (r.code !== 0) throw new Error(`autocannon failed (${r.code}): ${r.stderr.slice(-300)}`);
  const out = JSON.parse(r.stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return { rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx, errors: out.errors, total: out.requests.total };
}
