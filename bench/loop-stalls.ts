/**
 * @module bench/loop-stalls
 * What stalls the served process's event loop under write load (issue 24's create and PUT
 * p99): serves a copy of the seeded 10k file with `--cpu-prof` and bench/lib/loop-gaps.mjs
 * preloaded, loads it with creates or PUTs (4 connections, random bodies, as the http
 * scenario does), then names, for every turn of the loop that came late, the code the
 * profile sampled meanwhile (project frames from the outermost in, and the leaf).
 *
 *   OP=create SECONDS=6 node --conditions=source --import tsx bench/loop-stalls.ts
 *
 * OP=put loads PUTs; PROFILE=0 leaves the profile out; WHOLE=1 attributes the whole load
 * instead of the late turns; SHOW=n prints the n longest late turns; HEAP=1 also sums where
 * the server allocated (collected objects included); NODE_FLAGS="--trace-gc" adds flags to
 * the server's node (its GC lines printed with GC=1); SERVE_ENV='{"K":"v"}' adds to its
 * environment; KEEP=1 keeps the scratch folder (the profile) for a closer look.
 *
 * Seed first: `npm run bench -- --seed-only --sizes 10k`. Runs the built CLI (build first).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteIds, variedRequests } from "./lib/http-targets.js";
import { loadVaried } from "./lib/load-varied.js";
import { startServer } from "./lib/proc.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const dir = join(root, "bench", ".data", "scratch-stalls");
const op = process.env.OP === "put" ? "update person (PUT)" : "create person";
const seconds = Number(process.env.SECONDS ?? 6);
/** PROFILE=0: no profile (its sampling slows the server), only the late turns and the delay histogram. */
const profiled = process.env.PROFILE !== "0";
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const db = join(dir, "stalls.db");
copyFileSync(join(root, "bench", ".data", "persons-10k-s42.db"), db);
const gapsFile = join(dir, "gaps.json");
const heapFile = join(dir, "heap.json");
const server = startServer(
  process.execPath,
  [...(process.env.NODE_FLAGS?.split(" ").filter(Boolean) ?? []), ...(profiled ? ["--cpu-prof", "--cpu-prof-interval", "250", `--cpu-prof-dir=${dir}`] : []), "--import", join(root, "bench/lib/loop-gaps.mjs"), join(root, "packages/server/bin/records-service.js"), "serve", "--db", db, "--port", "0", "--quiet"],
  { cwd: root, env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOOP_GAPS_FILE: gapsFile, ...(process.env.HEAP === "1" ? { HEAP_SAMPLE_FILE: heapFile } : {}), ...(process.env.SERVE_ENV ? JSON.parse(process.env.SERVE_ENV) : {}) } },
);
const url = /listening on (http:\/\/\S+)/.exec(await server.line(/listening on/, 60_000))![1]!;
const reqs = variedRequests(url, "bench", sqliteIds(db, "bench"), 42, 4);
await loadVaried(root, join(dir, "req.json"), reqs[op], 1, 0); // warm-up, not attributed
const threadsBefore = _threadTicks(server.child.pid!);
const wal = _watchWal(`${db}-shm`);
const loadStart = Number(process.hrtime.bigint() / 1000n);
const result = await loadVaried(root, join(dir, "req.json"), reqs[op], seconds, 0);
const loadEnd = Number(process.hrtime.bigint() / 1000n);
const threadsAfter = _threadTicks(server.child.pid!);
const walSeen = wal.stop();
await server.stop(20_000);
if (process.env.GC === "1") console.log(server.output.filter((l) => /Scavenge|Mark-Compact|Mark-sweep/i.test(l)).slice(-40).join("\n"));
console.log(`${op}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);

const all = JSON.parse(readFileSync(gapsFile, "utf8")) as { delay: object; gaps: [number, number, number, number][] };
// process.hrtime is the machine's monotonic clock: the same in the server, here and in the profile.
const during = all.gaps.filter(([a, b]) => a >= loadStart && b <= loadEnd);
// A turn is the server's own stall when its thread ran most of it; else it waited for a CPU.
const gaps = during.filter(([a, b, ran]) => ran >= 0.5 * (b - a));
const sum = (xs: typeof during, i: 2 | 3) => (xs.reduce((s, g) => s + g[i], 0) / 1000).toFixed(0);
console.log(`event-loop delay over the whole process (ms): ${JSON.stringify(all.delay)}`);
console.log(`during the load: ${during.length} turns late by more than 5 ms (the thread ran ${sum(during, 2)} ms of them, waited for a CPU ${sum(during, 3)} ms)`);
console.log(`  ${gaps.length} of them mostly running: longest ${(Math.max(0, ...gaps.map(([a, b]) => b - a)) / 1000).toFixed(1)} ms; lengths (ms) ${gaps.map(([a, b]) => ((b - a) / 1000).toFixed(0)).sort((x, y) => Number(y) - Number(x)).slice(0, 30).join(" ")}`);
const used = new Map<string, number>();
for (const [tid, t] of threadsAfter) used.set(`${t.name}#${tid}`, (t.ticks - (threadsBefore.get(tid)?.ticks ?? 0)) * 10);
console.log(`CPU of the server's threads over the load (ms): ${[...used].filter(([, ms]) => ms > 0).sort((x, y) => y[1] - x[1]).map(([n, ms]) => `${n} ${ms}`).join(", ")}`);
console.log(`WAL over the load: longest log ${walSeen.maxFrames} frames (the commit-time checkpoint runs at ${50_000}), restarted ${walSeen.restarts} times, frames not yet copied back at most ${walSeen.maxBehind}`);
// WHOLE=1: the whole load as one span (where the CPU goes), not the late turns.
if (profiled) _attribute(JSON.parse(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!), "utf8")) as _Profile, process.env.WHOLE === "1" ? [[loadStart, loadEnd]] : gaps);
if (process.env.HEAP === "1") _allocations((JSON.parse(readFileSync(heapFile, "utf8")) as { head: _HeapNode }).head);
if (process.env.KEEP !== "1") rmSync(dir, { recursive: true, force: true });
process.exit(0);

// --- internal ---

/**
 * Reads the WAL index (the `-shm` file) every 20 ms: its header's `mxFrame` (frames in the
 * log, offset 16) and the checkpoint's `nBackfill` (frames copied back, offset 96). The log
 * restarts when a writer finds every frame copied back (mxFrame falls).
 */
function _watchWal(shm: string): { stop(): { maxFrames: number; restarts: number; maxBehind: number } } {
  let maxFrames = 0;
  let restarts = 0;
  let maxBehind = 0;
  let last = 0;
  const timer = setInterval(() => {
    const b = readFileSync(shm).subarray(0, 136);
    const frames = b.readUInt32LE(16);
    const backfilled = b.readUInt32LE(96);
    if (frames < last) restarts++;
    last = frames;
    maxFrames = Math.max(maxFrames, frames);
    maxBehind = Math.max(maxBehind, frames - Math.min(frames, backfilled));
  }, 20);
  return { stop: () => (clearInterval(timer), { maxFrames, restarts, maxBehind }) };
}

/** Each thread's name and CPU ticks (user + system, 10 ms each) from /proc. */
function _threadTicks(pid: number): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(tid, { name: tid === String(pid) ? "main" : name, ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return out;
}

interface _Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface _Profile {
  nodes: _Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface _HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: _HeapNode[];
}

/** Prints the bytes allocated under each project function (inclusive), largest first. */
function _allocations(head: _HeapNode): void {
  const under = new Map<string, number>();
  let total = 0;
  const walk = (n: _HeapNode, stack: Set<string>) => {
    total += n.selfSize;
    const here = new Set(stack);
    if (n.callFrame.url.includes("/packages/")) here.add(`${n.callFrame.functionName || "(anon)"}@${n.callFrame.url.replace(/.*\/packages\//, "")}:${n.callFrame.lineNumber + 1}`);
    for (const f of here) under.set(f, (under.get(f) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, here);
  };
  walk(head, new Set());
  console.log(`\nallocated over the process's life: ${(total / 1e6).toFixed(0)} MB; under each project function (MB):`);
  for (const [f, b] of [...under].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`  ${(b / 1e6).toFixed(1)} ${f}`);
}

/** Prints each late turn's sampled code, then the total late time per stack of project frames. */
function _attribute(profile: _Profile, gaps: readonly (readonly [number, number, ...number[]])[]): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frame = (n: _Node) => `${n.callFrame.functionName || "(anon)"}@${n.callFrame.url.replace(/.*\/packages\//, "").replace(/^file:\/\/.*\/node_modules\//, "nm:")}:${n.callFrame.lineNumber + 1}`;
  const signature = (id: number) => {
    const chain: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (/\/packages\/|^\(/.test(n.callFrame.url) || n.callFrame.url.includes("/packages/") || /^\(/.test(n.callFrame.functionName)) chain.unshift(frame(n));
    }
    const projects = chain.filter((f) => !f.startsWith("("));
    return `${projects.slice(0, 4).join(" > ")} ... [leaf ${frame(byId.get(id)!)}]`;
  };
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  const total = new Map<string, number>();
  const longest = new Set([...gaps].sort((x, y) => y[1] - y[0] - (x[1] - x[0])).slice(0, Number(process.env.SHOW ?? 12)));
  for (const g of gaps) {
    const [a, b] = g;
    const inGap = new Map<string, number>();
    for (let i = 0; i < times.length; i++) {
      if (times[i]! < a || times[i]! > b) continue;
      const s = signature(profile.samples[i]!);
      inGap.set(s, (inGap.get(s) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
    }
    const top = [...inGap].sort((x, y) => y[1] - x[1]).slice(0, 5);
    for (const [s, ms] of inGap) total.set(s, (total.get(s) ?? 0) + ms);
    if (longest.has(g)) console.log(`\nlate ${((b - a) / 1000).toFixed(1)} ms:\n${top.map(([s, ms]) => `  ${ms.toFixed(1)} ms ${s}`).join("\n")}`);
  }
  console.log("\nlate time by stack (ms):");
  for (const [s, ms] of [...total].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`  ${ms.toFixed(1)} ${s}`);
}
