/**
 * @module bench/scenarios/gateway
 * The v2 gateways, in-process through the app (`app.request`, auth and all):
 *
 * - **segment count**: `GET /segments/v2/{flock}/segment/{id}/count` of a segment whose rule
 *   is `last_name=<a common last name>` (an indexed field), against the same filter's
 *   `total` through `GET /api/v1/{flock}/person/?last_name=...`, on a copy of the person data
 *   set of each size. Target: within 2x (issue 21, point 6).
 * - **events list**: `GET /events/v2/{flock}` over 10,000 bookings (spread over four years
 *   around the bench's "today"), each with a ticket type and 10 tickets (100,000 tickets),
 *   made once in a file of its own. Target: p50 <= 20 ms (no baseline).
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createFakeClock, createRecordEngine, formatDate, formatTimestamp, systemClock, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { createApp } from "../../packages/server/src/app.js";
import { hashToken } from "../../packages/server/src/auth/tokens.js";
import { sqliteDataFile } from "../lib/data-file.js";
import { median, round3, timePair } from "../lib/measure.js";
import { BENCH_TOKEN } from "../lib/seed.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

const FLOCK = "bench";
const NOW = new Date("2026-06-01T12:00:00.000Z");
const DAY = 86_400_000;
const BOOKINGS = 10_000;
const TICKETS_PER_BOOKING = 10;
const HEADERS = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/gateway/1" };

export const scenarios: Scenario[] = [
  { name: "segment count vs list total", group: "gateway", run: (ctx) => _segmentCount(ctx) },
  { name: "events list", group: "gateway", run: (ctx) => (ctx.dataset.size === Math.max(...ctx.sizes) ? _eventsList(ctx) : Promise.resolve([])) },
];

// --- internal ---

async function _segmentCount(ctx: BenchContext): Promise<ScenarioResult[]> {
  const file = join(ctx.scratchDir, `segments-${ctx.dataset.size}.db`);
  copyFileSync(ctx.dataset.file, file);
  const storage = createSqliteStorage({ path: file });
  try {
    const engine = createRecordEngine({ storage, clock: systemClock });
    const app = createApp({ engine, secret: "bench-secret-0123456789" });
    const name = ctx.dataset.sample.lastName;
    const segment = await engine.create(ctx.dataset.flock, "segment", { name: "bench", resource_type: "person", rules: { last_name: name } });
    const countPath = `/segments/v2/${ctx.dataset.flock}/segment/${segment.id}/count`;
    const listPath = `/api/v1/${ctx.dataset.flock}/person/?last_name=${encodeURIComponent(name)}`;
    const count = ((await (await app.request(countPath, { headers: HEADERS })).json()) as { count: number }).count;
    const total = ((await (await app.request(listPath, { headers: HEADERS })).json()) as { total: number }).total;
    const opts = ctx.quick ? { warmup: 3, minIterations: 5, maxIterations: 50, budgetMs: 300 } : { warmup: 20, minIterations: 15, maxIterations: 2000, budgetMs: 2500 };
    const t = await timePair(
      async () => (await app.request(countPath, { headers: HEADERS })).text(),
      async () => (await app.request(listPath, { headers: HEADERS })).text(),
      opts,
    );
    const ratio = t.ours / t.baseline;
    return [
      {
        scenario: `gateway: segment count (last_name, ${count} of ${ctx.dataset.size.toLocaleString("en")}) vs the list's total`,
        ours: round3(t.ours),
        baseline: round3(t.baseline),
        baselineName: "GET person/?last_name",
        unit: "ms",
        ratio: round3(ratio),
        target: "<= 2",
        met: ratio <= 2 && count === total,
        rows: count,
        note: count === total ? undefined : `count ${count} differs from total ${total}`,
        data: ctx.dataset.file,
      },
    ];
  } finally {
    await storage.close();
  }
}

async function _eventsList(ctx: BenchContext): Promise<ScenarioResult[]> {
  const file = await _eventsFile(ctx);
  const storage = createSqliteStorage({ path: file });
  try {
    const engine = createRecordEngine({ storage, clock: createFakeClock(NOW) });
    const app = createApp({ engine, secret: "bench-secret-0123456789" });
    const path = `/events/v2/${FLOCK}`;
    const first = (await (await app.request(path, { headers: HEADERS })).json()) as { total: number; bookings: unknown[] };
    const n = ctx.quick ? 20 : 200;
    for (let i = 0; i < Math.min(10, n); i++) await (await app.request(path, { headers: HEADERS })).text();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await (await app.request(path, { headers: HEADERS })).text();
      times.push(performance.now() - started);
    }
    const p50 = median(times);
    return [
      {
        scenario: `gateway: events list (${BOOKINGS.toLocaleString("en")} bookings, ${(BOOKINGS * TICKETS_PER_BOOKING).toLocaleString("en")} tickets; ${first.total} in the window, page of ${first.bookings.length}) p50`,
        ours: round3(p50),
        baseline: null,
        unit: "ms",
        ratio: null,
        target: "<= 20 ms",
        met: p50 <= 20,
        rows: first.bookings.length,
        data: `${file} (made once and reused)`,
      },
    ];
  } finally {
    await storage.close();
  }
}

/** The events file, made once: bookings over four years around NOW, a ticket type and 10 tickets each. */
async function _eventsFile(ctx: BenchContext): Promise<string> {
  const file = join(ctx.root, "bench", ".data", `gateway-events-${BOOKINGS}-v1.db`);
  return sqliteDataFile(file, async (storage) => {
    const created = formatTimestamp(NOW);
    await storage.createFlock({ identifier: FLOCK, name: "Bench", created });
    await storage.putUser({ username: "bench@example.org", passwordHash: "x", flocks: [FLOCK], role: "core", created });
    await storage.putApiKey({ tokenHash: hashToken(BENCH_TOKEN), username: "bench@example.org", created, expires: null });
    const batch = 500;
    for (let from = 0; from < BOOKINGS; from += batch) {
      const records: StoredRecord[] = [];
      for (let i = from; i < Math.min(BOOKINGS, from + batch); i++) records.push(..._event(i, created));
      await storage.apply({ records: records.map((record) => ({ kind: "insert", record })) });
      if (from % 2000 === 0) ctx.log(`  gateway events: ${from.toLocaleString("en")} of ${BOOKINGS.toLocaleString("en")} bookings`);
    }
  });
}

function _event(i: number, created: string): StoredRecord[] {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  const start = formatDate(new Date(NOW.getTime() + ((h % 1460) - 730) * DAY));
  const id = (n: number, kind: number) => `${kind.toString(16)}${n.toString(16).padStart(23, "0")}`;
  const rec = (rid: string, type: string, data: Record<string, unknown>, display: string): StoredRecord => ({ id: rid, flock: FLOCK, type, state: "updated", data, displayValue: display, created, lastUpdated: created, version: 1 });
  const bookingId = id(i, 0xa);
  const bUri = `/${FLOCK}/booking/${bookingId}/`;
  const typeId = id(i, 0xb);
  const out = [
    rec(bookingId, "booking", { title: `Event ${i}`, start_date: start, start_time: h % 2 ? "19:00" : "10:30", location: "Hall" }, `Event ${i}`),
    rec(typeId, "bookable", { booking_ref: bUri, name: "Seat", amount: 10, total: 20 }, "Seat"),
  ];
  for (let k = 0; k < TICKETS_PER_BOOKING; k++) {
    const n = i * TICKETS_PER_BOOKING + k;
    out.push(rec(id(n, 0xc), "ticket", { booking_ref: bUri, bookable_ref: `/${FLOCK}/bookable/${typeId}/`, buyer_ref: `/${FLOCK}/person/${id(n % 5000, 0xd)}/`, amount: 10, ...(k === 9 ? { status: "cancelled" } : {}) }, `Ticket ${n}`));
  }
  return out;
}
