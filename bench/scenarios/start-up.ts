/**
 * @module bench/scenarios/start-up
 * `records-service serve` from spawn to its `listening` line on an existing file of the
 * largest size in the run (a copy, warm in the page cache), and its resident memory after
 * start and a few requests; Directus's start (to answering its ping) and memory beside.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { median, round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import { BENCH_TOKEN } from "../lib/seed.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";
import { startDirectus } from "../peers/directus.js";

/** The start-up scenarios (run at the largest size only). */
export const scenarios: Scenario[] = [{ name: "start-up and idle memory", group: "start-up", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  if (dataset.size !== Math.max(...ctx.sizes)) return [];
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;
  const file = join(ctx.scratchDir, `start-${dataset.size}.db`);
  copyFileSync(dataset.file, file);
  const runs = ctx.quick ? 2 : 7;
  const times: number[] = [];
  let rss: number | undefined;
  try {
    for (let i = 0; i < runs; i++) {
      const srv = await startOurs(ctx.root, file);
      try {
        times.push(srv.startMs);
        if (i === runs - 1) {
          const auth = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0" };
          const id = dataset.sample.personIds[0]!;
          for (let k = 0; k < 20; k++) {
            await (await fetch(`${srv.url}/api/v1/${dataset.flock}/person/${id}/`, { headers: auth })).arrayBuffer();
            await (await fetch(`${srv.url}/api/v1/${dataset.flock}/person/?last_name=${encodeURIComponent(dataset.sample.lastName)}`, { headers: auth })).arrayBuffer();
          }
          await new Promise((r) => setTimeout(r, 1000));
          rss = srv.server.rssMb();
        }
      } finally {
        await srv.server.stop();
      }
    }
  } finally {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }

  let peer: { startMs: number; rss: number | undefined } | undefined;
  let peerNote = ctx.peers ? "" : "skipped (--no-peer)";
  if (ctx.peers) {
    const started = await startDirectus(ctx.root, dataset, ctx.log);
    if (!started.ok) peerNote = `Directus unavailable: ${started.reason}`;
    else {
      try {
        const h = { authorization: `Bearer ${started.peer.token}` };
        for (let k = 0; k < 20; k++) await (await fetch(`${started.peer.url}/items/person/${started.peer.personId}`, { headers: h })).arrayBuffer();
        await new Promise((r) => setTimeout(r, 1000));
        peer = { startMs: started.peer.startSeconds * 1000, rss: started.peer.server.rssMb() };
      } finally {
        await started.peer.stop();
      }
    }
  }

  const how = kind === "built" ? "built CLI" : `${kind}${buildProblem ? `: ${buildProblem}` : ""}`;
  const ours = median(times);
  return [
    {
      scenario: "start-up: spawn to listening",
      ours: round3(ours),
      baseline: peer ? round3(peer.startMs) : null,
      baselineName: "Directus (to ping)",
      unit: "ms",
      ratio: peer ? round3(ours / peer.startMs) : null,
      target: "< 500 ms",
      note: `median of ${runs} starts, ${how}${peerNote ? `; ${peerNote}` : ""}`,
    },
    {
      scenario: "start-up: idle memory (RSS)",
      ours: rss === undefined ? null : round3(rss),
      baseline: peer?.rss === undefined ? null : round3(peer.rss),
      baselineName: "Directus",
      unit: "MB",
      ratio: rss !== undefined && peer?.rss !== undefined ? round3(rss / peer.rss) : null,
      note: `after start and 40 requests${peerNote ? `; ${peerNote}` : ""}`,
    },
  ];
}
