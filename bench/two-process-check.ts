/**
 * @module bench/two-process-check
 * Issue 10's two-process check, as a new user would try it: two `serve` processes on one
 * database (a SQLite file, or a fresh PostgreSQL database with `--db postgres://...`), a
 * `contact_created` webhook trigger to a loopback receiver, persons created alternately
 * through each process; then each person read through one process, updated through the
 * other and read at once through the first again. Prints how many deliveries were accepted (answered 200) more than
 * once, how many reads returned the old value, and how many requests failed.
 *
 *   node --conditions=source --import tsx bench/two-process-check.ts [--db postgres://postgres@127.0.0.1:5432/] [--persons 300]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "packages/server/src/cli.ts");
const USER = { username: "ada@example.org", password: "pw-for-two-process-check" };
const QUIET_MS = 3000;

interface Options {
  /** A PostgreSQL server URL; a fresh database is made on it and dropped after. */
  pg?: string;
  persons: number;
}

/** One serve process and its API key. */
interface Proc {
  child: ChildProcess;
  url: string;
  key: string;
  output: string[];
}

const opts = _args(process.argv.slice(2));
const tmp = mkdtempSync(join(tmpdir(), "two-process-check-"));
let dropDb: (() => Promise<void>) | undefined;
const procs: Proc[] = [];
let receiver: Server | undefined;

try {
  const report = await run();
  console.log(JSON.stringify(report, null, 2));
} finally {
  for (const p of procs) p.child.kill("SIGKILL");
  receiver?.close();
  await dropDb?.();
  rmSync(tmp, { recursive: true, force: true });
}

async function run() {
  const started = loadavg()[0]!.toFixed(2);
  // Accepted deliveries per delivery id.
  const accepted = new Map<string, number>();
  let lastDelivery = Date.now();
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-records-delivery"] ?? "");
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      lastDelivery = Date.now();
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  let db = join(tmp, "records.db");
  if (opts.pg) {
    process.env.RECORDS_TEST_PG_URL = opts.pg;
    const { createTestDatabase } = await import("@records-service/postgres/testing");
    const made = await createTestDatabase();
    db = made.url;
    dropDb = () => made.drop();
  }
  const config = join(tmp, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      flocks: [{ identifier: "demo", name: "Demo" }],
      users: [{ ...USER, flocks: ["demo"] }],
      triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hook }],
      webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 200, retryWindowHours: 1 },
    }),
  );
  // The first process creates the schema; the second starts on it.
  procs.push(await _serve(db, config));
  procs.push(await _serve(db, config));

  let failed = 0;
  const request = async (p: Proc, method: string, path: string, body?: unknown): Promise<Response | undefined> => {
    try {
      const res = await fetch(`${p.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${p.key}`, application: "bench/two-process-check/1", "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (res.status >= 300) {
        failed += 1;
        await res.text();
        return undefined;
      }
      return res;
    } catch {
      failed += 1;
      return undefined;
    }
  };

  // Created alternately, two at a time (one through each process), as two clients would.
  const ids: string[] = [];
  for (let i = 0; i < opts.persons; i += 2) {
    const made = await Promise.all(
      [0, 1].map(async (k) => {
        const res = await request(procs[k]!, "POST", "/api/v1/demo/person/", { first_name: `P${i + k}`, last_name: "Check" });
        return res ? ((await res.json()) as { uri: string }).uri.split("/")[3] : undefined;
      }),
    );
    for (const id of made) if (id) ids.push(id);
  }

  // Read through one process (as a client showing the record would), updated through the
  // other, then read at once through the first again.
  let stale = 0;
  for (let i = 0; i < ids.length; i++) {
    const [w, r] = i % 2 === 0 ? [procs[0]!, procs[1]!] : [procs[1]!, procs[0]!];
    const value = `Updated${i}`;
    const before = await request(r, "GET", `/api/v1/demo/person/${ids[i]}/`);
    if (before) await before.text();
    const put = await request(w, "PUT", `/api/v1/demo/person/${ids[i]}/`, { last_name: value });
    if (!put) continue;
    await put.text();
    const got = await request(r, "GET", `/api/v1/demo/person/${ids[i]}/`);
    if (!got) continue;
    const body = (await got.json()) as { data?: { last_name?: string } };
    if (body.data?.last_name !== value) stale += 1;
  }

  // Every delivery in, then a quiet spell in which a double would show.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (accepted.size < ids.length || Date.now() - lastDelivery < QUIET_MS)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const twice = [...accepted.values()].filter((n) => n > 1).length;
  return {
    database: opts.pg ? "postgresql" : "sqlite",
    persons: ids.length,
    deliveriesAccepted: [...accepted.values()].reduce((a, b) => a + b, 0),
    distinctDeliveries: accepted.size,
    acceptedTwice: twice,
    staleReads: stale,
    reads: ids.length,
    failedRequests: failed,
    load1: `${started} at start, ${loadavg()[0]!.toFixed(2)} at end`,
  };
}

async function _serve(db: string, config: string): Promise<Proc> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx/esm", CLI, "serve", "--db", db, "--port", "0", "--config", config, "--quiet"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output.join(" | ")}`)), 60_000);
    const onData = (d: Buffer) => {
      for (const line of d.toString().split("\n")) {
        if (line) output.push(line);
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", () => reject(new Error(`serve exited: ${output.join(" | ")}`)));
  });
  const login = await fetch(`${url}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(USER) });
  const { api_key } = (await login.json()) as { api_key: string };
  return { child, url, key: api_key, output };
}

function _args(argv: string[]): Options {
  const o: Options = { persons: 300 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === "--db" && v) {
      if (!/^postgres(ql)?:\/\//.test(v)) throw new Error(`--db takes a PostgreSQL server URL (SQLite is the default): ${v}`);
      o.pg = v;
      i++;
    } else if (a === "--persons" && v && /^\d+$/.test(v)) {
      o.persons = Number(v);
      i++;
    } else {
      throw new Error(`unknown argument ${a}; usage: two-process-check.ts [--db postgres://...] [--persons N]`);
    }
  }
  return o;
}
