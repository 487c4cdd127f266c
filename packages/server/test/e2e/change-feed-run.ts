/**
 * @module test/e2e/change-feed-run
 * The change feed's end-to-end scenario, shared by the SQLite and PostgreSQL suites: two
 * real `serve` processes on one database; 4 writers make 1,000 records through both; a
 * client follows the feed, disconnects and reconnects twice (to the other process each
 * time) and rides through one restart of the process it reads from. It must receive every
 * change exactly once, in commit order.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSse, type SseEvent } from "../helpers/sse.js";
import { startCli, type CliProcess } from "./spawn-cli.js";

const PASSWORD = "correct horse battery staple";
const FLOCK = "feed";

/** What the run saw, for the test to check. */
export interface FeedRunResult {
  /** uri of every record created, per writer, in the order its POSTs were answered. */
  written: string[][];
  /** The events the client received, in order. */
  received: SseEvent[];
  /** How many times the client (re)connected. */
  connections: number;
}

/** Runs the scenario on `db` (a SQLite file path or a PostgreSQL URL). */
export async function runFeedScenario(db: string, opts: { writers?: number; perWriter?: number } = {}): Promise<FeedRunResult> {
  const writers = opts.writers ?? 4;
  const perWriter = opts.perWriter ?? 250;
  const total = writers * perWriter;
  const config = join(mkdtempSync(join(tmpdir(), "feed-e2e-")), "config.json");
  writeFileSync(config, JSON.stringify({ flocks: [{ identifier: FLOCK }], users: [{ username: "ada", password: PASSWORD, flocks: [FLOCK] }] }));
  const serve = async (): Promise<{ p: CliProcess; base: string }> => {
    const p = startCli(["serve", "--port", "0", "--db", db, "--config", config]);
    const line = await p.line(/listening on http:\/\//, 30_000);
    return { p, base: /listening on (http:\/\/\S+)/.exec(line)![1]! };
  };
  let a = await serve();
  const b = await serve();
  const login = await fetch(`${b.base}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada", password: PASSWORD }),
  });
  const key = ((await login.json()) as { api_key: string }).api_key;
  const headers = { authorization: `Bearer ${key}`, application: "e2e/feed/1" };

  // While A restarts, writers send everything to B (a request A had accepted still finishes:
  // shutdown is graceful), so no write is lost or sent twice.
  let aDown = false;
  const written: string[][] = Array.from({ length: writers }, () => []);
  const write = async (w: number) => {
    for (let n = 0; n < perWriter; n++) {
      const target = !aDown && n % 2 === 0 ? a.base : b.base;
      const res = await fetch(`${target}/api/v1/${FLOCK}/journal/`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ kind: "note", subject: `w${w} n${n}` }),
      });
      if (res.status !== 201) {
        const logs = [...a.p.stdout, ...a.p.stderr, ...b.p.stdout, ...b.p.stderr].filter((l) => /error|Error/.test(l)).slice(0, 5);
        throw new Error(`write answered ${res.status}: ${await res.text()} ${logs.join(" | ")}`);
      }
      written[w]!.push(((await res.json()) as { uri: string }).uri);
    }
  };

  const received: SseEvent[] = [];
  let connections = 0;
  const follow = async () => {
    // From the start of the flock's feed; then always after the last id received.
    let useA = true;
    while (received.length < total) {
      connections += 1;
      const base = useA && !aDown ? a.base : b.base;
      const last = received.at(-1)?.id ?? 0;
      let res: Response;
      try {
        res = await fetch(`${base}/api/v1/${FLOCK}/changes/?type=journal`, {
          headers: { ...headers, accept: "text/event-stream", "last-event-id": String(last) },
        });
      } catch {
        useA = !useA; // that process is restarting: try the other
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${await res.text()}`);
      const sse = readSse(res.body!);
      const before = received.length;
      try {
        for (;;) {
          const [e] = await sse.events(1);
          if (!e) break; // the server ended the stream (restart)
          received.push(e);
          // Two deliberate disconnects, each resumed on the other process.
          if (received.length === total || received.length === Math.floor(total / 4) || received.length === Math.floor(total / 2)) {
            await sse.cancel();
            break;
          }
        }
      } catch {
        // The connection broke under the restart: resume.
      }
      if (received.length === before) await new Promise((r) => setTimeout(r, 50));
      useA = !useA;
    }
  };
  const restartA = async () => {
    while (received.length < Math.floor((total * 3) / 5)) await new Promise((r) => setTimeout(r, 20));
    aDown = true;
    a.p.child.kill("SIGTERM");
    const code = await a.p.exited(20_000);
    if (code !== 0) throw new Error(`serve exited ${code}`);
    a = await serve();
    aDown = false;
  };

  try {
    const following = follow();
    await Promise.all([...Array.from({ length: writers }, (_, w) => write(w)), restartA()]);
    await Promise.race([
      following,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`feed stopped at ${received.length} of ${total}`)), 60_000).unref()),
    ]);
  } finally {
    a.p.child.kill("SIGTERM");
    b.p.child.kill("SIGTERM");
    await Promise.all([a.p.exited(20_000).catch(() => null), b.p.exited(20_000).catch(() => null)]);
  }
  return { written, received, connections };
}
