/**
 * @module bench/scenarios/events
 * The event side, in-process on SQLite files of its own (the person data set is not used;
 * these run once, at the largest size of the run):
 *
 * - **scheduler**: how long the scheduler takes to find the due events of a window among
 *   as many memberships as the largest size asked (1,000,000 only when 1M is asked) (`computeDueEvents`: candidates by index through the list query,
 *   then core's `dueEvents`), against a hand-written SQL range query on the same file that
 *   reads and parses the same candidate rows. For comparison, the same windows asked as a
 *   plain `end_date__gt=A&end_date__lte=B` list query, which the scheduler avoids.
 * - **webhooks**: deliveries per second the outbox worker sustains to a loopback receiver
 *   (claim, build the payload, sign, POST, record the outcome and the tag), against the
 *   same number of plain `fetch` POSTs to the same receiver at the same concurrency.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  createRecordEngine,
  dueWindows,
  formatDate,
  formatTimestamp,
  systemClock,
  validateTriggers,
  type ListQuery,
  type Storage,
  type StoredRecord,
  type TriggerWindow,
} from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { createActionRegistry } from "../../packages/server/src/actions/registry.js";
import { createWebhookActions } from "../../packages/server/src/actions/webhook.js";
import { createOutboxRunner } from "../../packages/server/src/workers/outbox.js";
import { computeDueEvents } from "../../packages/server/src/workers/scheduler-run.js";
import { sqliteDataFile } from "../lib/data-file.js";
import { round3, timePair } from "../lib/measure.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

const FLOCK = "bench";
const DAY = 86_400_000;
/** The bench's "now": memberships end from a year before it to a year after it. */
const NOW = new Date("2026-06-01T00:00:00.000Z");
/** The triggers of the scheduler scenario (two on end_date, one on start_date). */
const TRIGGERS = ["expiring_2wk", "lapsed_1d", "new_membership_1wk"];

/** The event scenarios. */
export const scenarios: Scenario[] = [
  { name: "scheduler: due events among memberships", group: "events", run: (ctx) => _onceAtLargest(ctx, _scheduler) },
  { name: "webhook deliveries per second", group: "events", run: (ctx) => _onceAtLargest(ctx, _webhooks) },
];

// --- internal ---

async function _onceAtLargest(ctx: BenchContext, run: (ctx: BenchContext) => Promise<ScenarioResult[]>): Promise<ScenarioResult[]> {
  return ctx.dataset.size === Math.max(...ctx.sizes) ? run(ctx) : [];
}

/**
 * Memberships of the scheduler scenario: as many as the largest size asked (1,000,000 only
 * when 1M is asked), at most 100,000 with `--quick`.
 */
export function membershipCount(sizes: readonly number[], quick: boolean): number {
  const largest = Math.max(...sizes);
  return quick ? Math.min(largest, 100_000) : largest;
}

async function _scheduler(ctx: BenchContext): Promise<ScenarioResult[]> {
  const count = membershipCount(ctx.sizes, ctx.quick);
  const file = await _membershipsFile(ctx, count);
  const data = `${file} (${count.toLocaleString("en")} generated memberships, made once for this size and reused)`;
  const storage = createSqliteStorage({ path: file, readonly: true });
  const hand = new Database(file, { readonly: true });
  hand.pragma("cache_size = -131072");
  try {
    const label = `${count.toLocaleString("en")} memberships`;
    const opts = ctx.quick
      ? { warmup: 2, minIterations: 5, maxIterations: 30, budgetMs: 500 }
      : { warmup: 5, minIterations: 15, maxIterations: 500, budgetMs: 4000 };
    const out: ScenarioResult[] = [];
    const midday = new Date(NOW.getTime() + DAY / 2);
    for (const [what, window] of [
      // A day's catch-up (a run after a day of downtime, or a daily cron), ending at midnight.
      ["a one-day window", { lastRun: new Date(NOW.getTime() - DAY), now: NOW }],
      // The default cron's window at midday: date-only end dates cannot fall in it.
      ["a one-minute window", { lastRun: new Date(midday.getTime() - 60_000), now: midday }],
    ] as const) {
      const found = await computeDueEvents(storage, FLOCK, TRIGGERS, window);
      const baseline = _handDue(hand, dueWindows(window, { triggerNames: TRIGGERS }));
      const t = await timePair(
        () => computeDueEvents(storage, FLOCK, TRIGGERS, window),
        () => _handDue(hand, dueWindows(window, { triggerNames: TRIGGERS })),
        opts,
      );
      out.push({
        scenario: `events: scheduler finds due events, ${what}, ${label} (${TRIGGERS.length} triggers)`,
        ours: round3(t.ours),
        baseline: round3(t.baseline),
        baselineName: "sql",
        unit: "ms",
        ratio: round3(t.ours / t.baseline),
        rows: found.length,
        note: `${found.length} due events; the hand-written range query reads ${baseline.candidates} candidate rows`,
        data,
      });
    }
    // What the scheduler avoids: the same one-day windows as gt+lte pairs of the list query.
    const window = { lastRun: new Date(NOW.getTime() - DAY), now: NOW };
    const windows = dueWindows(window, { triggerNames: TRIGGERS });
    const pair = await timePair(
      () => _rangePairs(storage, windows),
      () => _handDue(hand, windows),
      { warmup: 1, minIterations: 3, maxIterations: 5, budgetMs: 0 },
    );
    out.push({
      scenario: `events: (comparison) the same one-day windows as field__gt & field__lte list queries, ${label}`,
      ours: round3(pair.ours),
      baseline: round3(pair.baseline),
      baselineName: "sql",
      unit: "ms",
      ratio: round3(pair.ours / pair.baseline),
      note: "each bound is read as its own index range (half the index each); why the scheduler queries by prefix",
      data,
    });
    return out;
  } finally {
    hand.close();
    await storage.close();
  }
}

/** The hand-written query: one range per window on the field's index, rows parsed, conditions checked. */
function _handDue(db: Database.Database, windows: readonly TriggerWindow[]): { due: number; candidates: number } {
  const fid = db.prepare<[string, string], { fid: number }>(
    "SELECT f.fid FROM fields f JOIN collections c ON c.cid = f.cid WHERE c.flock = ? AND c.type = 'membership' AND f.name = ?",
  );
  const range = db.prepare<[number, string, string], { id: string; data: string }>(
    "SELECT r.id, r.data FROM record_values v JOIN records r ON r.rid = v.rid WHERE v.fid = ? AND v.kind = 0 AND v.text > ? AND v.text <= ? AND r.state = 'updated'",
  );
  let due = 0;
  let candidates = 0;
  for (const w of windows) {
    const f = fid.get(FLOCK, w.field);
    if (!f) continue;
    for (const row of range.all(f.fid, w.afterText, w.upToText)) {
      candidates += 1;
      const data = JSON.parse(row.data) as Record<string, unknown>;
      if (w.name.startsWith("expiring") && data.auto_renew === true) continue;
      due += 1;
    }
  }
  return { due, candidates };
}

async function _rangePairs(storage: Storage, windows: readonly TriggerWindow[]): Promise<number> {
  let n = 0;
  for (const w of windows) {
    const query: ListQuery = {
      filters: [
        { field: w.field, meta: false, op: "gt", values: [{ text: w.afterText }] },
        { field: w.field, meta: false, op: "lte", values: [{ text: w.upToText }] },
      ],
      mode: "AND",
      states: ["updated"],
      page: 1,
      pageSize: 1500,
    };
    n += (await storage.listRecords(FLOCK, "membership", query)).records.length;
  }
  return n;
}

/** A file of `count` memberships, made once and reused (bench/.data/memberships-<count>-v1.db). */
async function _membershipsFile(ctx: BenchContext, count: number): Promise<string> {
  const file = join(ctx.root, "bench", ".data", `memberships-${count}-v1.db`);
  let started: number | undefined;
  await sqliteDataFile(file, async (storage) => {
    started = performance.now();
    await storage.createFlock({ identifier: FLOCK, name: "Bench", created: formatTimestamp(NOW) });
    const batch = 10_000;
    const created = formatTimestamp(NOW);
    for (let from = 0; from < count; from += batch) {
      const records: StoredRecord[] = [];
      for (let i = from; i < Math.min(count, from + batch); i++) records.push(_membership(i, created));
      await storage.apply({ records: records.map((record) => ({ kind: "insert", record })) });
      if ((from / batch) % 10 === 0) ctx.log(`  memberships: ${from.toLocaleString("en")} of ${count.toLocaleString("en")}`);
    }
  });
  if (started !== undefined) ctx.log(`  memberships: seeded ${count.toLocaleString("en")} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return file;
}

/** Membership `i`: ends on one of 730 days around NOW (about 1,370 a day at 1M), a year after it started. */
function _membership(i: number, created: string): StoredRecord {
  // A multiplicative hash spreads consecutive ids over the days and the flags.
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  const end = new Date(NOW.getTime() + ((h % 730) - 365) * DAY);
  const data = {
    member: `/${FLOCK}/person/${(i + 1).toString(16).padStart(24, "0")}/`,
    membership_number: `M${i}`,
    membership_type: h % 3 === 0 ? "family" : "individual",
    start_date: formatDate(new Date(end.getTime() - 365 * DAY)),
    end_date: formatDate(end),
    auto_renew: (h >>> 10) % 2 === 0,
    membership_record_status: "active",
  };
  return {
    id: `f${i.toString(16).padStart(23, "0")}`,
    flock: FLOCK,
    type: "membership",
    state: "updated",
    data,
    displayValue: `M${i}`,
    created,
    lastUpdated: created,
    version: 1,
  };
}

async function _webhooks(ctx: BenchContext): Promise<ScenarioResult[]> {
  const n = ctx.quick ? 200 : 2000;
  const concurrency = 8;
  const receiver = await _receiver();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const storage = createSqliteStorage({ path: join(ctx.scratchDir, "outbox.db") });
  try {
    await storage.createFlock({ identifier: FLOCK, name: "Bench", created: formatTimestamp(systemClock.now()) });
    const { triggers } = validateTriggers([{ flock: FLOCK, trigger: "contact_created", action: "send-json-webhook", url }], { allowInsecureUrls: true });
    const engine = createRecordEngine({ storage, triggers: () => triggers });
    const person = await engine.create(FLOCK, "person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
    const uri = `/${FLOCK}/person/${person.id}/`;
    const events = Array.from({ length: n }, () => ({ name: "contact_created", contextUri: uri }));
    for (let i = 0; i < events.length; i += 500) await engine.emit(FLOCK, events.slice(i, i + 500));
    const before = receiver.count;
    const runner = createOutboxRunner({
      engine,
      clock: systemClock,
      secret: "bench-secret-0123456789",
      registry: createActionRegistry(createWebhookActions({ allowInsecureUrls: true })),
      policy: {},
      random: Math.random,
      concurrency,
    });
    let t = performance.now();
    let done = 0;
    while (done < n) {
      const s = await runner.runOnce();
      if (s.done === 0) throw new Error(`the outbox delivered nothing (${JSON.stringify(s)})`);
      done += s.done;
    }
    const oursSeconds = (performance.now() - t) / 1000;
    if (receiver.count - before < n) throw new Error(`the receiver got ${receiver.count - before} of ${n}`);

    const body = JSON.stringify({ trigger: "contact_created", event: "contact", flock: FLOCK, data: await engine.toSingle(person), contact: person.data });
    t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next += 1;
          const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
          await res.arrayBuffer();
        }
      }),
    );
    const baseSeconds = (performance.now() - t) / 1000;
    const ours = n / oursSeconds;
    const baseline = n / baseSeconds;
    return [
      {
        scenario: `events: webhook deliveries per second through the outbox (${n} jobs, concurrency ${concurrency}, SQLite file)`,
        ours: round3(ours),
        baseline: round3(baseline),
        baselineName: "fetch",
        unit: "req/s",
        ratio: round3(ours / baseline),
        note: "ours: claim, payload, HMAC signatures, POST, outcome + tag in one transaction per job; baseline: plain fetch POSTs",
        data: `a new file in the scratch folder: one person, ${n} data events with their jobs`,
      },
    ];
  } finally {
    await storage.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

/** A loopback receiver answering 200 to every request, counting them. */
async function _receiver(): Promise<Server & { count: number }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      counted.count += 1;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  const counted = Object.assign(server, { count: 0 });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return counted;
}
