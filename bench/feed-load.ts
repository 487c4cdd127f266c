/**
 * @module bench/feed-load
 * Issue 20's change feed figures on a SQLite file, against the real CLI:
 *
 * 1. Memory per idle feed: the server's RSS (from /proc) before and after opening `--idle`
 *    feeds without a position (so nothing is buffered), divided by their number.
 * 2. Another flock's latency with `--feeds` filtered feeds open on flock `other`, whose log is
 *    seeded with `--log` journal changes: `?type=nothing&since=0` (a type without changes,
 *    from the start), or with `--type journal` following the busy type from the head.
 *    `--rounds` times a write and a list read in flock `demo`, and a ping; then the same with
 *    the writes in `other`; prints p50, p90 and max of each.
 *
 *   node --conditions=source --import tsx bench/feed-load.ts [--root DIR] [--log 100000] [--feeds 200] [--idle 1000] [--rounds 60]
 *
 * `--root` runs the CLI of another checkout (e.g. before a change). The feeds are spread over
 * enough keys, and the caps raised in the config where the server knows them
 * (`--caps`), so that the caps themselves do not refuse the bench's feeds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { derive, formatTimestamp, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";

const args = _args(process.argv.slice(2));
const ROOT = args.root ?? fileURLToPath(new URL("../", import.meta.url));
// Now: the scheduler purges changes older than the retention (7 days) at start.
const AT = formatTimestamp(new Date());
const KEYS = Array.from({ length: 200 }, (_, i) => `k${String(i).padStart(3, "0")}`.padEnd(64, "f"));
const APP = { application: "bench/feed-load/1" };

const tmp = mkdtempSync(join("/dev/shm", "feed-load-"));
const db = join(tmp, "records.db");
try {
  const t0 = performance.now();
  await _seed();
  console.log(`seeded ${args.log} changes in flock other in ${Math.round(performance.now() - t0)} ms`);
  const config = join(tmp, "config.json");
  writeFileSync(config, JSON.stringify(args.caps ? { changes: { maxFeedsPerKey: 100_000, maxFeedsPerFlock: 100_000 } } : {}));
  const server = await _serve(config);
  try {
    if (args.idle > 0) await _memory(server);
    await _latency(server);
  } finally {
    server.child.kill("SIGTERM");
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// --- internal ---

interface Server {
  child: ChildProcess;
  url: string;
}

async function _memory(server: Server): Promise<void> {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  await _warm(server);
  const before = _rss(server.child.pid!);
  const opened = await _open(server, args.idle, (i) => `/api/v1/demo/changes/`, stop.signal);
  await new Promise((r) => setTimeout(r, 3000));
  const after = _rss(server.child.pid!);
  const cpu0 = _cpu(server.child.pid!);
  await new Promise((r) => setTimeout(r, 5000));
  const idleCpu = (_cpu(server.child.pid!) - cpu0) / 5;
  console.log(`idle feeds: ${opened.ok} open (${opened.refused} refused: ${opened.statuses}); RSS ${_mib(before)} -> ${_mib(after)} MiB: ${Math.round((after - before) / Math.max(1, opened.ok) / 1024)} KiB per feed; CPU while idle ${idleCpu.toFixed(0)}% of a core`);
  stop.abort();
  await new Promise((r) => setTimeout(r, 2000));
}

async function _latency(server: Server): Promise<void> {
  const base = await _rounds(server);
  console.log(`no feeds:           ${_report(base)}`);
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const opened = await _open(server, args.feeds, () => `/api/v1/other/changes/?type=${args.type}${args.type === "nothing" ? "&since=0" : ""}`, stop.signal);
  await new Promise((r) => setTimeout(r, 1000));
  const loaded = await _rounds(server);
  console.log(`${opened.ok} feeds ?type=${args.type} (${opened.refused} not opened: ${opened.statuses}): ${_report(loaded)}`);
  // Writes in flock other too: every feed is woken, and reads one page.
  const busy = await _rounds(server, "other");
  console.log(`  writing in other:  ${_report(busy)}`);
  stop.abort();
}

async function _rounds(server: Server, writeIn = "demo"): Promise<{ read: number[]; write: number[]; ping: number[]; cpu: number }> {
  const out = { read: [] as number[], write: [] as number[], ping: [] as number[], cpu: 0 };
  const cpu0 = _cpu(server.child.pid!);
  const h = { authorization: `Bearer ${KEYS[0]}`, ...APP };
  for (let i = 0; i < args.rounds; i++) {
    let t = performance.now();
    let res = await fetch(`${server.url}/api/v1/${writeIn}/journal/`, { method: "POST", headers: { ...h, "content-type": "application/json" }, body: JSON.stringify({ n: i }) });
    await res.arrayBuffer();
    out.write.push(performance.now() - t);
    t = performance.now();
    res = await fetch(`${server.url}/api/v1/demo/journal/?page_size=10`, { headers: h });
    await res.arrayBuffer();
    out.read.push(performance.now() - t);
    t = performance.now();
    res = await fetch(`${server.url}/api/v1/ping/`);
    await res.arrayBuffer();
    out.ping.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  out.cpu = _cpu(server.child.pid!) - cpu0;
  return out;
}

async function _open(server: Server, n: number, path: (i: number) => string, signal: AbortSignal): Promise<{ ok: number; refused: number; statuses: string }> {
  let ok = 0;
  let refused = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, async (_, j) => {
        const key = KEYS[(i + j) % KEYS.length]!;
        const res = await fetch(`${server.url}${path(i + j)}`, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream", ...APP }, signal }).catch(() => undefined);
        if (res?.status === 200) {
          ok += 1;
          // Read the stream (and drop it) so that nothing piles up on our side.
          void res.body?.pipeTo(new WritableStream(), { signal }).catch(() => {});
        } else {
          refused += 1;
          const k = String(res?.status ?? "no answer");
          seen.set(k, (seen.get(k) ?? 0) + 1);
          await res?.arrayBuffer().catch(() => {});
        }
      }),
    );
  }
  return { ok, refused, statuses: [...seen].map(([k, v]) => `${v}x ${k}`).join(", ") };
}

/** CPU time (user + system) of a process so far, in 10 ms ticks (percent of a core per second). */
function _cpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(f[11]) + Number(f[12]);
}

async function _warm(server: Server): Promise<void> {
  for (let i = 0; i < 20; i++) await (await fetch(`${server.url}/api/v1/ping/`)).arrayBuffer();
}

function _report(r: { read: number[]; write: number[]; ping: number[]; cpu: number }): string {
  const f = (xs: number[]) => `p50 ${_pct(xs, 0.5).toFixed(1)} ms, p90 ${_pct(xs, 0.9).toFixed(1)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  return `read ${f(r.read)}; write ${f(r.write)}; ping ${f(r.ping)}; server CPU ${(r.cpu / 100).toFixed(2)} s`;
}

function _pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
}

function _rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m![1]) * 1024;
}

function _mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

async function _seed(): Promise<void> {
  const storage = createSqliteStorage({ path: db });
  try {
    for (const f of ["demo", "other"]) await storage.createFlock({ identifier: f, name: f, created: AT });
    await storage.putUser({ username: "bench", passwordHash: "!disabled", flocks: ["*"], role: "core", created: AT });
    for (const k of KEYS) await storage.putApiKey({ tokenHash: createHash("sha256").update(k).digest("hex"), username: "bench", created: AT, expires: null });
    const size = 2000;
    for (let b = 0; b < args.log; b += size) {
      const batch: StoredRecord[] = [];
      for (let i = b; i < Math.min(args.log, b + size); i++) {
        const { data, displayValue } = derive("journal", { n: i, subject: `entry ${i}` });
        batch.push({ id: `aaaaaaaa${i.toString(16).padStart(16, "0")}`, flock: "other", type: "journal", state: "updated", data, displayValue, created: AT, lastUpdated: AT, version: 1 });
      }
      await storage.apply({ records: batch.map((record) => ({ kind: "insert" as const, record })) });
    }
  } finally {
    await storage.close();
  }
}

async function _serve(config: string): Promise<Server> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx/esm", join(ROOT, "packages/server/src/cli.ts"), "serve", "--db", db, "--port", "0", "--quiet", "--config", config], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (s: string) => {
      out += s;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { child, url };
}

function _args(argv: string[]): { root?: string; log: number; feeds: number; idle: number; rounds: number; caps: boolean; type: string } {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    ...(get("root") ? { root: get("root")! } : {}),
    log: Number(get("log") ?? 100_000),
    feeds: Number(get("feeds") ?? 200),
    idle: Number(get("idle") ?? 1000),
    rounds: Number(get("rounds") ?? 60),
    caps: argv.includes("--caps"),
    type: get("type") ?? "nothing",
  };
}
