/**
 * @module bench/lib/load-varied
 * HTTP load where every request differs: a child process (run by `loadVaried`, so the load
 * generator never shares an event loop with a server or the runner) that drives autocannon
 * through its API, each request taking a random path (and body) from the lists it is given,
 * so no answer can come from a cache of the one repeated request.
 *
 *   node --import tsx/esm bench/lib/load-varied.ts <config.json>   (prints a LoadResult as JSON)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connections, type LoadResult } from "./load.js";
import { runToEnd } from "./proc.js";

/** What to send: one of `paths` (and of `bodies`, when given) at random per request. */
export interface VariedRequest {
  /** Origin of the server, e.g. http://127.0.0.1:4000. */
  base: string;
  method?: "GET" | "POST" | "PUT" | "PATCH";
  headers?: Record<string, string>;
  paths: readonly string[];
  bodies?: readonly string[];
  /** Connections kept open (default `connections()`, 2 per core). */
  connections?: number;
}

/**
 * Loads `req` for `durationSec` after an untimed warm-up of `warmupSec`; `scratch` is a
 * file the request lists are handed over in.
 *
 * @example
 * await loadVaried(root, join(scratchDir, "req.json"), { base, paths: ["/a", "/b"] }, 5, 1);
 */
export async function loadVaried(root: string, scratch: string, req: VariedRequest, durationSec: number, warmupSec: number): Promise<LoadResult> {
  writeFileSync(scratch, JSON.stringify(req));
  const run = async (seconds: number): Promise<LoadResult> => {
    const r = await runToEnd(process.execPath, ["--import", "tsx/esm", join(root, "bench/lib/load-varied.ts"), scratch, String(seconds)], {
      cwd: root,
      timeoutMs: (seconds + 60) * 1000,
    });
    if (r.code !== 0) throw new Error(`varied load failed (${r.code}): ${r.stderr.slice(-300)}`);
    return JSON.parse(r.stdout) as LoadResult;
  };
  if (warmupSec > 0) await run(warmupSec);
  return run(durationSec);
}

// --- internal ---

interface _Autocannon {
  (opts: object, cb: (err: Error | null, result: _Result) => void): unknown;
}
interface _Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

async function _child(file: string, seconds: number): Promise<void> {
  const req = JSON.parse(readFileSync(file, "utf8")) as VariedRequest;
  const autocannon = (await import("autocannon" as string)).default as _Autocannon;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const result = await new Promise<_Result>((resolve, reject) =>
    autocannon(
      {
        url: req.base,
        connections: req.connections ?? connections(),
        duration: seconds,
        requests: [
          {
            method: req.method ?? "GET",
            headers: req.headers ?? {},
            setupRequest: (r: Record<string, unknown>) => ({ ...r, path: pick(req.paths), ...(req.bodies ? { body: pick(req.bodies) } : {}) }),
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    ),
  );
  const out: LoadResult = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await _child(process.argv[2]!, Number(process.argv[3]));
}
