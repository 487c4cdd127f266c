/**
 * @module bench/scenarios/event-exports
 * The attendance export of the events gateway (`GET /events/v2/{flock}/booking/{uid}/attendance/export`,
 * XLSX, every column group), in-process through the app (`app.request`, auth and all), over
 * an event of 5,000 tickets (each a different attendee with a telephone, an address and a
 * membership) and one of 500, made once in a file of their own:
 *
 * - **first byte**: from the request to the first chunk of the body. Target < 200 ms (issue 21, point 6).
 * - **memory**: the peak growth of live memory (heap plus external, measured after a forced
 *   collection every few chunks, in runs of their own so the collections do not slow the
 *   timed runs) while the whole file is read, at 5,000 tickets against 500. Flat: the growth
 *   at 10x the rows stays within 1.5x (plus 2 MB of noise); the JSON attendance list of the
 *   same 5,000 tickets, which holds them all, is shown beside it.
 */
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { createFakeClock, createRecordEngine, formatTimestamp, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { createApp } from "../../packages/server/src/app.js";
import { hashToken } from "../../packages/server/src/auth/tokens.js";
import { sqliteDataFile } from "../lib/data-file.js";
import { median, round3 } from "../lib/measure.js";
import { BENCH_TOKEN } from "../lib/seed.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

const FLOCK = "bench";
const NOW = new Date("2026-06-01T12:00:00.000Z");
const BIG = 5_000;
const SMALL = 500;
const HEADERS = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/event-exports/1" };
const FIELDSETS = "core,attendance,communications,emergency,membership,profile,mailing";

export const scenarios: Scenario[] = [
  { name: "attendance export", group: "event-exports", run: (ctx) => (ctx.dataset.size === Math.min(...ctx.sizes) ? _attendanceExport(ctx) : Promise.resolve([])) },
];

// --- internal ---

interface _Read {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  peakGrowthMb: number;
}

async function _attendanceExport(ctx: BenchContext): Promise<ScenarioResult[]> {
  const file = await _eventsFile(ctx);
  const storage = createSqliteStorage({ path: file });
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  try {
    const engine = createRecordEngine({ storage, clock: createFakeClock(NOW) });
    const app = createApp({ engine, secret: "bench-secret-0123456789" });
    const exportPath = (n: number) => `/events/v2/${FLOCK}/booking/${_id(n, 0xa)}/attendance/export?fieldset=${FIELDSETS}`;
    /** Reads `path` to its end; with `live`, memory is sampled after a collection every 4 chunks. */
    const read = async (path: string, live = false): Promise<_Read> => {
      gc();
      const base = _memory();
      let peak = base;
      const started = performance.now();
      const res = await app.request(path, { headers: HEADERS });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      let firstByteMs = -1;
      let bytes = 0;
      let chunks = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += value.byteLength;
        if (!live || ++chunks % 4 !== 0) continue;
        gc();
        peak = Math.max(peak, _memory());
      }
      if (live) {
        gc();
        peak = Math.max(peak, _memory());
      }
      return { firstByteMs, totalMs: performance.now() - started, bytes, peakGrowthMb: (peak - base) / 1e6 };
    };
    const n = ctx.quick ? 2 : 5;
    await read(exportPath(SMALL));
    const big: _Read[] = [];
    const small: _Read[] = [];
    const liveBig: _Read[] = [];
    const liveSmall: _Read[] = [];
    for (let i = 0; i < n; i++) {
      big.push(await read(exportPath(BIG)));
      small.push(await read(exportPath(SMALL)));
      liveBig.push(await read(exportPath(BIG), true));
      liveSmall.push(await read(exportPath(SMALL), true));
    }
    const json = await read(`/events/v2/${FLOCK}/booking/${_id(BIG, 0xa)}/attendance/all`, true);
    const first = median(big.map((r) => r.firstByteMs));
    const growthBig = median(liveBig.map((r) => r.peakGrowthMb));
    const growthSmall = median(liveSmall.map((r) => r.peakGrowthMb));
    const flat = growthBig <= 1.5 * growthSmall + 2;
    const data = `${file} (made once and reused)`;
    return [
      {
        scenario: `event exports: attendance export XLSX, ${BIG.toLocaleString("en")} tickets, every column group: first byte (whole file ${round3(median(big.map((r) => r.totalMs)))} ms, ${(big[0]!.bytes / 1e6).toFixed(2)} MB)`,
        ours: round3(first),
        baseline: null,
        unit: "ms",
        ratio: null,
        target: "< 200 ms",
        met: first < 200,
        rows: BIG,
        data,
      },
      {
        scenario: `event exports: attendance export peak live memory growth, ${BIG.toLocaleString("en")} tickets vs ${SMALL} (the JSON attendance list of ${BIG.toLocaleString("en")}: ${round3(json.peakGrowthMb)} MB)`,
        ours: round3(growthBig),
        baseline: round3(growthSmall),
        baselineName: `the same export of ${SMALL} tickets`,
        unit: "MB",
        ratio: growthSmall > 0 ? round3(growthBig / growthSmall) : null,
        target: "flat: <= 1.5x the 500-ticket growth + 2 MB",
        met: flat,
        rows: BIG,
        data,
      },
    ];
  } finally {
    await storage.close();
  }
}

function _memory(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function _id(n: number, kind: number): string {
  return `${kind.toString(16)}${n.toString(16).padStart(23, "0")}`;
}

/** Two events (5,000 and 500 tickets), one attendee each ticket with a membership, made once. */
async function _eventsFile(ctx: BenchContext): Promise<string> {
  const file = join(ctx.root, "bench", ".data", `event-exports-${BIG}-v1.db`);
  return sqliteDataFile(file, async (storage) => {
    const created = formatTimestamp(NOW);
    await storage.createFlock({ identifier: FLOCK, name: "Bench", created });
    await storage.putUser({ username: "bench@example.org", passwordHash: "x", flocks: [FLOCK], role: "core", created });
    await storage.putApiKey({ tokenHash: hashToken(BENCH_TOKEN), username: "bench@example.org", created, expires: null });
    const rec = (id: string, type: string, data: Record<string, unknown>, display: string): StoredRecord => ({ id, flock: FLOCK, type, state: "updated", data, displayValue: display, created, lastUpdated: created, version: 1 });
    const plan = rec(_id(1, 0xe), "membership_type", { name: "Standard" }, "Standard");
    await storage.apply({ records: [{ kind: "insert", record: plan }] });
    let person = 0;
    for (const size of [BIG, SMALL]) {
      const booking = _id(size, 0xa);
      const bUri = `/${FLOCK}/booking/${booking}/`;
      const type = _id(size, 0xb);
      await storage.apply({
        records: [
          rec(booking, "booking", { title: `Event of ${size}`, start_date: "2026-06-20", location: "Hall" }, `Event of ${size}`),
          rec(type, "bookable", { booking_ref: bUri, name: "Seat", amount: 10, total: size }, "Seat"),
        ].map((record) => ({ kind: "insert" as const, record })),
      });
      for (let from = 0; from < size; from += 500) {
        const records: StoredRecord[] = [];
        for (let i = from; i < Math.min(size, from + 500); i++) {
          const pid = _id(++person, 0xd);
          const pUri = `/${FLOCK}/person/${pid}/`;
          const first = `Given${i}`;
          const last = `Family${i % 997}`;
          records.push(
            rec(pid, "person", { first_name: first, last_name: last, email: [`p${person}@example.org`], telephone: [`+44 20 7946 ${String(i).padStart(4, "0")}`], address_lines: [`${i} High Street`], locality: "London", postal_code: "N1 1AA", country: "GB", job_title: "Engineer", emergency_contact_details: "Next of kin, 01234 567890", email_opt_out: false }, `${first} ${last}`),
            rec(_id(person, 0xf), "member", { member: pUri, membership_number: `M${person}`, membership_type: `/${FLOCK}/membership_type/${plan.id}/`, start_date: "2026-01-01", end_date: "2026-12-31" }, `M${person}`),
            rec(_id(person, 0xc), "ticket", { booking_ref: bUri, bookable_ref: `/${FLOCK}/bookable/${type}/`, buyer_ref: pUri, amount: 10, ...(i % 3 === 0 ? { attendance: "attended" } : {}) }, `Ticket ${person}`),
          );
        }
        await storage.apply({ records: records.map((record) => ({ kind: "insert", record })) });
      }
      ctx.log(`  event exports: an event of ${size.toLocaleString("en")} tickets made`);
    }
  });
}
