/**
 * Preloaded into a served process (`node --import ./bench/lib/loop-gaps.mjs ...`) by
 * bench/loop-stalls.ts: a 1 ms timer notes every turn of the event loop that came more
 * than LOOP_GAP_MS (default 5) late, with process.hrtime's microseconds (the clock of a
 * `--cpu-prof` profile) and, from /proc, how much of the gap the main thread ran on a CPU
 * and how long it waited for one (on a busy machine most lateness is the wait); the
 * event-loop delay histogram too. Written to LOOP_GAPS_FILE as JSON when the process exits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_GAPS_FILE;
const threshold = Number(process.env.LOOP_GAP_MS ?? 5) * 1000;
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
/** [ran, waited] of the main thread in µs (0s where /proc is not there). */
const sched = () => {
  try {
    const [ran, waited] = readFileSync(schedstat, "utf8").split(" ").map(Number);
    return [ran / 1000, waited / 1000];
  } catch {
    return [0, 0];
  }
};
/** [start µs, end µs, ran µs, waited µs] per late turn. */
const gaps = [];
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let last = process.hrtime.bigint() / 1000n;
let lastSched = sched();
const timer = setInterval(() => {
  const now = process.hrtime.bigint() / 1000n;
  const s = sched();
  if (Number(now - last) > threshold + 1000) gaps.push([Number(last), Number(now), Math.round(s[0] - lastSched[0]), Math.round(s[1] - lastSched[1])]);
  last = now;
  lastSched = s;
}, 1);
timer.unref();
process.on("exit", () => {
  if (!file) return;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const delay = { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count };
  writeFileSync(file, JSON.stringify({ delay, gaps }));
});

// HEAP_SAMPLE_FILE: where allocations were made, collected ones included (V8's sampling heap
// profiler, one sample per 16 KiB on average), written at exit for bench/loop-stalls to sum.
const heapFile = process.env.HEAP_SAMPLE_FILE;
if (heapFile) {
  const { Session } = await import("node:inspector");
  const session = new Session();
  session.connect();
  session.post("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  process.on("exit", () => session.post("HeapProfiler.stopSampling", (err, r) => !err && writeFileSync(heapFile, JSON.stringify(r.profile))));
}
