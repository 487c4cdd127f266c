/**
 * @module bench/lib/load-varied
 * HTTP load where every request differs: a child process (run by `loadVaried`, so the load
 * generator never shares an event loop with a server or the runner) that drives autocannon
 * through its API, each request taking a random path (and body) from the lists it is given,
 * so no answer can come from a cache of the one repeated request.
 *
 *   node --import tsx/esm bench/lib/load-varied.ts <config.json> <seconds>   (prints a LoadResult as JSON)
 *   node --import tsx/esm bench/lib/load-varied.ts --serve   ({file, seconds} lines in, LoadResult lines out)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connections, type LoadResult } from "./load.js";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

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
  /** Requests each connection sends in turn, each random as its own (then `method`, `paths` and `bodies` are not used). */
  mix?: readonly Omit<VariedRequest, "base" | "connections" | "mix">[];
}

/**
 * Loads `req` for `durationSec` after an untimed warm-up of `warmupSec`; `scratch` is a
 * file the request lists are handed over in. The load runs in one child process kept for
 * the whole bench run (its start, ~1 s with tsx and autocannon, was a fifth of
 * `--sizes 10k`), one load at a time.
 *
 * @example
 * await loadVaried(root, join(scratchDir, "req.json"), { base, paths: ["/a", "/b"] }, 5, 1);
 */
export async function loadVaried(root: string, scratch: string, req: VariedRequest, durationSec: number, warmupSec: number): Promise<LoadResult> {
  writeFileSync(scratch, JSON.stringify(req));
  if (warmupSec > 0) await _load(root, scratch, warmupSec);
  return _load(root, scratch, durationSec);
}

// --- internal ---

interface _LoadChild {
  ask(file: string, seconds: number): Promise<LoadResult>;
}

let _shared: _LoadChild | undefined;
let _queue: Promise<unknown> = Promise.resolve();

/** Runs one load in the shared child (started on first use), after the loads asked before it. */
function _load(root: string, file: string, seconds: number): Promise<LoadResult> {
  const run = _queue.then(() => (_shared ??= _startChild(root)).ask(file, seconds));
  _queue = run.catch(() => undefined);
  return run;
}

/** The child: reads `{file, seconds}` lines on stdin, answers each with a LoadResult line; exits when stdin closes. */
function _startChild(root: string): _LoadChild {
  const child = spawn(process.execPath, ["--import", "tsx/esm", join(root, "bench/lib/load-varied.ts"), "--serve"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => undefined);
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
  const lines = createInterface({ input: child.stdout });
  let waiting: { resolve(r: LoadResult): void; reject(e: Error): void } | undefined;
  lines.on("line", (line) => {
    const w = waiting;
    waiting = undefined;
    if (!w) return;
    let answer: LoadResult | { error: string };
    try {
      answer = JSON.parse(line) as LoadResult | { error: string };
    } catch {
      answer = { error: `the load process printed ${JSON.stringify(line.slice(0, 200))}` };
    }
    if ("error" in answer) w.reject(new Error(`varied load failed: ${answer.error}`));
    else w.resolve(answer);
  });
  child.once("close", (code) => {
    _shared = undefined;
    waiting?.reject(new Error(`varied load failed (the load process exited ${code}): ${stderr.slice(-300)}`));
    waiting = undefined;
  });
  child.unref();
  return {
    ask: (file, seconds) =>
      new Promise<LoadResult>((resolve, reject) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), (seconds + 60) * 1000);
        waiting = {
          resolve: (r) => (clearTimeout(timer), resolve(r)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
        child.stdin.write(`${JSON.stringify({ file, seconds })}\n`);
      }),
  };
}

interface _Autocannon {
  (opts: object, cb: (err: Error | null, result: _Result) => void): unknown;
}
interface _Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

async function _child(file: string, seconds: number): Promise<LoadResult> {
  const req = JSON.parse(readFileSync(file, "utf8")) as VariedRequest;
  const autocannon = (await import("autocannon" as string)).default as _Autocannon;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const result = await new Promise<_Result>((resolve, reject) =>
    autocannon(
      {
        url: req.base,
        connections: req.connections ?? connections(),
        duration: seconds,
        requests: (req.mix ?? [req]).map((m) => ({
          method: m.method ?? "GET",
          headers: m.headers ?? {},
          setupRequest: (r: Record<string, unknown>) => ({ ...r, path: pick(m.paths), ...(m.bodies ? { body: pick(m.bodies) } : {}) }),
        })),
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
  return out;
}

/** The child's loop: one load per line of stdin, one answer line each. */
async function _serve(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    const { file, seconds } = JSON.parse(line) as { file: string; seconds: number };
    try {
      process.stdout.write(`${JSON.stringify(await _child(file, seconds))}\n`);
    } catch (e) {
      process.stdout.write(`${JSON.stringify({ error: (e as Error).message })}\n`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === "--serve") await _serve();
  else process.stdout.write(JSON.stringify(await _child(process.argv[2]!, Number(process.argv[3]))));
}
