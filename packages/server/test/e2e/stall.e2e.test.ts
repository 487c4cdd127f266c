/**
 * End to end (issue 15, point 4): no request stalls the server. The real CLI serves a
 * SQLite file; each worst-case request allowed by the limits (and each just past them) is
 * sent while `GET /api/v1/ping/` is asked again and again, and every ping must answer
 * within 150 ms (see PING_BOUND_MS).
 *
 * What is measured is the server's event-loop blocking, not its throughput: the pings come
 * from a process of their own, the bodies are encoded before the clock starts and the
 * server is warmed up first. On a machine whose cores are shared with other work a ping can
 * wait for a core rather than for the server, so a ping counts as blocked for the smaller of
 * its wall time and the CPU time the server's main thread used meanwhile (read from
 * /proc/PID/task/PID/stat, 10 ms ticks). Where /proc is missing, the bound grows instead by the CPU
 * contention measured around the case (the wall time of 20 ms of CPU work over 20 ms). A
 * stall like the ones the limits remove (a second and more) fails either way.
 *
 * CPU time itself stretches on a loaded machine (shared caches and memory bandwidth: the
 * same 10 MiB upload measured 39 ms of server CPU alone and 200 ms beside the rest of the
 * suite, on the code before and after issue 20 alike). So the bound also grows by the CPU
 * slowdown measured around each case: the CPU time of a fixed memory-bound workload in this
 * process over the fastest it took in this run (`_cpuSlowdown`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  derive,
  MAX_FIELDS_PER_RECORD,
  MAX_LIST_ANSWER_LENGTH,
  MAX_RECORD_DATA_LENGTH,
  MAX_VALUES_PER_RECORD,
  type StoredRecord,
} from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/tokens.js";
import { MAX_BODY_PARTS, MAX_JSON_BODY_BYTES } from "../../src/http/limits.js";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

/**
 * The bound on one ping, in ms of an uncontended machine. The stalls it guards against last
 * a second and more; the worst case allowed (a create of the largest record) takes 40 ms of
 * CPU on a quiet machine and 100-110 ms beside the rest of the suite's e2e servers, so 150
 * leaves room for the machine without letting a stall through.
 */
const PING_BOUND_MS = 150;
const TOKEN = "b".repeat(64);
const AT = "2026-01-15T10:00:00.000000";
const MIB = 1024 * 1024;
// In memory-backed storage where there is one: SQLite writes synchronously, so a disk
// busy with other processes' writes would show up as blocking that is not the server's.
const tmp = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "records-stall-"));
const db = join(tmp, "records.db");
let server: CliProcess;
let url: string;
let _pinger: Awaited<ReturnType<typeof _startPinger>>;

/** One request, its body encoded before timing starts. */
type Request = { method: string; path: string; body?: Uint8Array; type?: string };
/** `warm`: what warms the case's path, when the case itself is too slow to send unmeasured on the code it guards against. */
type WorstCase = { name: string; request: () => Promise<Request>; status: number; warm?: () => Promise<Request> };

/** Ids of the records the cases read and write, and the types of the pages they list: seeded straight into the file. */
const ids = { journal: id(1), referencing: id(2) };
const pages = { big: "payment_plan", dense: "activity" };
/** Members (and their persons) made through the API once the server runs, keyed by the length of the person's first name. */
const members = new Map<number, { member: string; person: string }>();
const LONG_NAMES = [16_000, 250_000];

beforeAll(async () => {
  // The unloaded reference of `_cpuSlowdown`: the fastest of a few runs.
  for (let i = 0; i < 5; i++) _cpuSlowdown();
  await _seed();
  server = startCli(["serve", "--db", db, "--port", "0", "--quiet"]);
  url = /listening on (http:\/\/\S+)/.exec(await server.line(/listening on http:\/\//, 30_000))![1]!;
  for (const length of [3, ...LONG_NAMES]) members.set(length, await _createMember(length));
  // Warm up every path the cases take, so that compiling them is not what is measured.
  for (const c of WORST_CASES) await _send(await (c.warm ?? c.request)());
  _pinger = await _startPinger();
}, 240_000);

afterAll(() => {
  _pinger?.stop();
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

const WORST_CASES: WorstCase[] = [
  {
    name: "a create of the largest record: four texts of 256 KiB (old limit), 1 MiB of JSON",
    request: async () => _json("POST", "/api/v1/demo/journal/", _bigData(MAX_RECORD_DATA_LENGTH - 1000)),
    status: 201,
  },
  {
    name: `a create with the most values: lists of 999 new numbers (${MAX_VALUES_PER_RECORD} index rows into large indexes)`,
    request: async () =>
      _json("POST", "/api/v1/demo/journal/", Object.fromEntries(Array.from({ length: MAX_VALUES_PER_RECORD / 1000 }, (_, f) => [`l${f}`, _numbers(999, Math.random())]))),
    status: 201,
  },
  {
    name: `a create adding the most new field names: ${MAX_FIELDS_PER_RECORD} new fields of lists (${MAX_FIELDS_PER_RECORD * 7} values)`,
    request: async () =>
      _json("POST", "/api/v1/demo/journal/", Object.fromEntries(Array.from({ length: MAX_FIELDS_PER_RECORD }, (_, f) => [`n${f}_${_nonce()}`, _numbers(6, Math.random())]))),
    status: 201,
  },
  {
    name: "a 1 MiB JSON body of empty objects (parsed in one go before: ~40 ms)",
    request: async () => ({ method: "POST", path: "/api/v1/demo/journal/", body: _utf8(`{"a":[${"{},".repeat((MAX_JSON_BODY_BYTES - 12) / 3)}{}]}`), type: "application/json" }),
    status: 400,
  },
  {
    name: "a JSON body of 19,998 object members (the most a body may hold; over a record's bound)",
    request: async () => _json("POST", "/api/v1/demo/journal/", { geo: Object.fromEntries(Array.from({ length: 19_998 }, (_, i) => [`k${i}`, i])) }),
    status: 400,
  },
  {
    name: `an upload of ${MAX_BODY_PARTS} files of 100 KiB (10 MiB, the most parts)`,
    request: async () => _form(`/api/v1/demo/journal/${ids.journal}/`, MAX_BODY_PARTS, 100 * 1024),
    status: 200,
  },
  {
    name: "an upload of one 10 MiB file (old limit)",
    request: async () => _form(`/api/v1/demo/journal/${ids.journal}/`, 1, 10 * MIB - 1024),
    status: 200,
  },
  {
    name: "10 MiB of one-byte parts (50,000; the platform's parser took seconds)",
    request: async () => _form(`/api/v1/demo/journal/${ids.journal}/`, 50_000, 1),
    status: 400,
  },
  {
    name: "the largest list answer: 4 records of 1 MiB, just under MAX_LIST_ANSWER_LENGTH",
    request: async () => ({ method: "GET", path: `/api/v1/demo/${pages.big}/?page_size=4` }),
    status: 200,
  },
  {
    name: "a list page past MAX_LIST_ANSWER_LENGTH: 1,500 records of 1 MiB asked (storage stops at 4)",
    request: async () => ({ method: "GET", path: `/api/v1/demo/${pages.big}/?page_size=1500&include_deleted=Y` }),
    status: 400,
  },
  {
    name: "a list answer dense with values: 600 records of 1,994 nested empty objects (1.2 M values)",
    request: async () => ({ method: "GET", path: `/api/v1/demo/${pages.dense}/?page_size=600` }),
    status: 200,
  },
  {
    name: "a record expanding 256 references to records of 96 KiB (read whole before: 24 MiB)",
    request: async () => ({ method: "GET", path: `/api/v1/demo/journal/${ids.referencing}/` }),
    status: 200,
  },
  ...LONG_NAMES.flatMap((length): WorstCase[] => [
    {
      name: `the PDF member card of a person whose first name is ${length.toLocaleString("en")} characters (a quadratic fit before)`,
      request: async () => ({ method: "GET", path: `/selfservice-pdf/v2/demo/member/${members.get(length)!.member}/card` }),
      warm: async () => ({ method: "GET", path: `/selfservice-pdf/v2/demo/member/${members.get(3)!.member}/card` }),
      status: 200,
    },
    {
      name: `the avatar (PNG, then SVG) of a person whose first name is ${length.toLocaleString("en")} characters`,
      request: async () => ({ method: "GET", path: `/api/v2/demo/person/${members.get(length)!.person}/avatar${length === LONG_NAMES[0] ? "" : "?format=svg"}` }),
      status: 200,
    },
  ]),
];

describe("no request stalls the server: pings answer within the bound during each worst case", () => {
  it.each(WORST_CASES)("$name", async (c) => {
    const requests = [await c.request(), await c.request()];
    const before = _contention();
    const slowBefore = _cpuSlowdown();
    const { pings, result: statuses } = await _pingWhile(async () => {
      const out: number[] = [];
      for (const r of requests) out.push(await _send(r));
      return out;
    });
    // Measured on both sides of the case: the machine's load moves while it runs.
    const contention = Math.max(before, _contention());
    const slowdown = Math.max(1, slowBefore, _cpuSlowdown());
    const bound = PING_BOUND_MS * slowdown;
    const wall = pings.map((p) => p.wall);
    const withCpu = pings.every((p) => p.cpu !== null);
    // A ping was held up by the server for at most the CPU time the server used meanwhile
    // (one tick more for the clock's granularity), and at most for its own wall time.
    const blocked = withCpu ? pings.map((p) => Math.min(p.wall, p.cpu! + _TICK_MS)) : wall.map((w) => w / Math.max(1, contention));
    const figures =
      `pings ${pings.map((p) => `${p.wall}${p.failed ? " (failed)" : ""}`).join(", ")} ms (server CPU meanwhile ${withCpu ? pings.map((p) => p.cpu).join(", ") : "unknown"} ms); ` +
      `max ${Math.max(...wall)} ms; blocked at most ${Math.round(Math.max(...blocked))} ms; contention ${contention.toFixed(2)}; ` +
      `CPU slowdown ${slowdown.toFixed(2)} (bound ${Math.round(bound)} ms)`;
    console.log(`${c.name}: ${figures}`);
    expect(statuses, figures).toEqual([c.status, c.status]);
    expect(pings.length, figures).toBeGreaterThanOrEqual(3);
    expect(pings.filter((p) => p.failed).length, `pings failed; ${figures}`).toBe(0);
    expect(Math.max(...blocked), figures).toBeLessThan(bound);
  }, 120_000);
});

// --- internal ---

function id(n: number): string {
  return `bb${n.toString(16).padStart(22, "0")}`;
}

let _n = 0;
function _nonce(): string {
  return (++_n).toString(36);
}

/** A person whose first name is `length` characters, and a member naming it, created through the API. */
async function _createMember(length: number): Promise<{ member: string; person: string }> {
  const create = async (type: string, data: Record<string, unknown>) => {
    const res = await fetch(`${url}/api/v1/demo/${type}/`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, application: "e2e/records-service/1", "content-type": "application/json" },
      body: JSON.stringify(data),
    });
    const body = (await res.json()) as { uri?: string };
    expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(201);
    return body.uri!.split("/")[3]!;
  };
  const person = await create("person", { first_name: "Wa".repeat(length / 2) + (length % 2 ? "W" : ""), last_name: "Long" });
  return { person, member: await create("member", { member: `/demo/person/${person}/`, membership_number: `M-${length}` }) };
}

/** Four texts making data of about `length` characters of JSON. */
function _bigData(length: number): Record<string, unknown> {
  const each = Math.floor((length - 60) / 4);
  return Object.fromEntries(["a", "b", "c", "d"].map((k, i) => [`t${k}`, String.fromCharCode(97 + i).repeat(each)]));
}

function _numbers(n: number, seed: number): number[] {
  return Array.from({ length: n }, (_, i) => seed * 10_000 + i);
}

function _utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function _json(method: string, path: string, value: unknown): Request {
  return { method, path, body: _utf8(JSON.stringify(value)), type: "application/json" };
}

async function _form(path: string, parts: number, size: number): Promise<Request> {
  const form = new FormData();
  const bytes = new Uint8Array(size).fill(120);
  for (let i = 0; i < parts; i++) form.append("files", new File([bytes], `f${i}.bin`, { type: "application/octet-stream" }));
  const encoded = new Request("http://x/", { method: "PUT", body: form });
  const body = new Uint8Array(await encoded.arrayBuffer());
  expect(body.byteLength).toBeLessThanOrEqual(10 * MIB); // within the body limit: the server reads it all
  return { method: "PUT", path, body, type: encoded.headers.get("content-type")! };
}

async function _send(r: Request): Promise<number> {
  // A connection per request: a large body written into a kept-alive socket the server is
  // just closing fails with EPIPE, and no retry is wanted while measuring.
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, application: "e2e/records-service/1", connection: "close" };
  if (r.type) headers["content-type"] = r.type;
  const res = await fetch(`${url}${r.path}`, { method: r.method, headers, body: r.body });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Runs `work` while the pinger (a process of its own, so that this process's sending and
 * receiving of large bodies cannot delay a ping) asks `/api/v1/ping/` over and over: the
 * ping times in ms, at least three of them.
 */
async function _pingWhile<T>(work: () => Promise<T>): Promise<{ pings: _Ping[]; result: T }> {
  _pinger.send("start");
  expect(await _pinger.next()).toBe("started");
  const result = await work();
  _pinger.send("stop");
  return { pings: JSON.parse(await _pinger.next()) as _Ping[], result };
}

/** One ping: its wall time, the CPU time of the server's main thread meanwhile (null without /proc), and whether it failed. */
type _Ping = { wall: number; cpu: number | null; failed: boolean };

/** The granularity of /proc's CPU times: 100 ticks a second. */
const _TICK_MS = 10;

/** The pinger process: on "start" it pings until "stop" (three at least), then prints the times. */
const _PINGER = `
const { readFileSync } = require("node:fs");
const url = process.argv[1] + "/api/v1/ping/";
// The main thread's own times (its thread id is the process id): the event loop's CPU,
// without the checkpointer's thread or the garbage collector's helpers.
const stat = "/proc/" + process.argv[2] + "/task/" + process.argv[2] + "/stat";
let pings = null;
let stopAt = Infinity;
// The server main thread's user + system CPU time in ms, or null where /proc cannot tell.
const cpu = () => {
  try {
    const text = readFileSync(stat, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * ${_TICK_MS};
  } catch {
    return null;
  }
};
// A ping the server drops (a reset after a long stall) counts with the time it waited.
const ping = async () => {
  const [start, used] = [performance.now(), cpu()];
  let failed = false;
  try {
    await (await fetch(url)).text();
  } catch {
    failed = true;
  }
  const after = cpu();
  return { wall: Math.round(performance.now() - start), cpu: used === null || after === null ? null : after - used, failed };
};
const series = async () => {
  pings = [];
  stopAt = Infinity;
  console.log("started");
  while (pings.length < stopAt) {
    pings.push(await ping());
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  console.log(JSON.stringify(pings));
};
let rest = "";
process.stdin.setEncoding("utf8").on("data", (chunk) => {
  const lines = (rest + chunk).split("\\n");
  rest = lines.pop();
  for (const line of lines) {
    if (line === "start") void series();
    if (line === "stop") stopAt = Math.max(3, Math.min(stopAt, pings.length + 1));
  }
});
(async () => {
  for (let i = 0; i < 200; i++) await ping(); // warm: its own first fetches are slow
  console.log("ready");
})();
`;

/** Starts the pinger; `next()` resolves with its next line of output. */
async function _startPinger(): Promise<{ send(line: string): void; next(): Promise<string>; stop(): void }> {
  const child = spawn(process.execPath, ["-e", _PINGER, url, String(server.child.pid)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let rest = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const line of parts) {
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  const pinger = {
    send: (line: string) => void child.stdin!.write(`${line}\n`),
    next: () => new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : waiting.push(resolve))),
    stop: () => void child.kill(),
  };
  expect(await pinger.next()).toBe("ready");
  return pinger;
}

/**
 * How much slower than its CPU time this process runs now: the wall time of 20 ms of CPU
 * work over 20 ms. The server shares the same cores, so its blocking stretches alike.
 */
function _contention(): number {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 10_000; i++) x += Math.sqrt(i);
    const used = process.cpuUsage(cpu);
    if (used.user + used.system >= 20_000) break;
  }
  return x > 0 ? (performance.now() - start) / 20 : 1;
}

/** A fixed memory-bound workload (1 MiB of JSON through stringify and parse, 4 times). */
const _WORKLOAD = Array.from({ length: 8_000 }, (_, i) => ({ i, name: `n${i}`.repeat(8), tags: ["a", "b", String(i)] }));
let _fastestWorkloadUs = Infinity;

/**
 * How much more CPU time the fixed workload takes now than the fastest it took in this run
 * (at least 1): the same stretch the server's CPU time shows beside other work.
 */
function _cpuSlowdown(): number {
  const cpu = process.cpuUsage();
  let n = 0;
  for (let i = 0; i < 4; i++) n += (JSON.parse(JSON.stringify(_WORKLOAD)) as unknown[]).length;
  const used = process.cpuUsage(cpu);
  const us = used.user + used.system;
  _fastestWorkloadUs = Math.min(_fastestWorkloadUs, us);
  return n > 0 ? Math.max(1, us / _fastestWorkloadUs) : 1;
}

/** Writes the flock, a core user with a fixed key and the records the cases read. */
async function _seed(): Promise<void> {
  const storage = createSqliteStorage({ path: db });
  const record = (recordId: string, type: string, data: Record<string, unknown>): StoredRecord => {
    const derived = derive(type, data);
    return { id: recordId, flock: "demo", type, state: "updated", data: derived.data, displayValue: derived.displayValue, created: AT, lastUpdated: AT, version: 1 };
  };
  const insert = (records: StoredRecord[]) => storage.apply({ records: records.map((r) => ({ kind: "insert" as const, record: r })) });
  try {
    await storage.createFlock({ identifier: "demo", name: "Demo", created: AT });
    await storage.putUser({ username: "admin", passwordHash: "!disabled", flocks: ["demo"], role: "core", created: AT });
    await storage.putApiKey({ tokenHash: hashToken(TOKEN), username: "admin", created: AT, expires: null });
    await insert([record(ids.journal, "journal", { title: "uploads" })]);
    // 256 organisations of 96 KiB, and a journal referencing each of them.
    const orgs = Array.from({ length: 256 }, (_, i) => record(id(1000 + i), "organisation", { name: `Org ${i}`, blob: "o".repeat(96 * 1024) }));
    for (let i = 0; i < orgs.length; i += 32) await insert(orgs.slice(i, i + 32));
    await insert([record(ids.referencing, "journal", Object.fromEntries(orgs.map((o, i) => [`r${i}`, `/demo/organisation/${o.id}/`])))]);
    // The largest answer: four records whose answer is just under the bound; then more.
    const quarter = MAX_LIST_ANSWER_LENGTH / 4 - 2000;
    for (let i = 0; i < 8; i++) await insert([record(id(2000 + i), pages.big, _bigData(i < 4 ? quarter : MAX_RECORD_DATA_LENGTH - 1000))]);
    // Records as dense with values as a record may be: nested lists of empty objects.
    const dense = Array.from({ length: 600 }, (_, i) => record(id(3000 + i), pages.dense, { a: [new Array(999).fill({}), new Array(995).fill({})], n: i }));
    for (let i = 0; i < dense.length; i += 100) await insert(dense.slice(i, i + 100));
  } finally {
    await storage.close();
  }
}
