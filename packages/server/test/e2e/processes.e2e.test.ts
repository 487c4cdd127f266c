/**
 * End to end (issue 10): several real server processes on one SQLite file behave as one
 * service. Separate `serve` processes (each on its own port, so each request goes to the
 * process the test picks): every read after a write through another process is right,
 * 5 failed logins spread over 2 processes lock the address, the throttle is the service's,
 * and 3 processes writing at once get no 5xx and no busy error. Then `serve --processes 2`:
 * both processes answer on the one port, SIGTERM lets an in-flight request finish before
 * all exit, and a process killed with SIGKILL is replaced while the port keeps answering.
 */
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { APP, concurrentCreates, failLogins, FLOCK, login, readAfterWrite, startServes, unattributedReads, USER, writeConfig } from "./multi-process.js";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

const dirs: string[] = [];
const fileDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "records-procs-"));
  dirs.push(dir);
  return join(dir, "records.db");
};
afterEach(() => killAll());
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each([2, 3])("%i serve processes on one SQLite file", (n) => {
  it("every read through another process sees the acknowledged write: by id and by a filtered list, many rounds, random records", async () => {
    const { bases } = await startServes(n, fileDb(), writeConfig(60));
    const key = await login(bases[0]!);
    const seen = await readAfterWrite(bases, key, 20, 60);
    expect(seen).toEqual({ rounds: 60, stale: 0, failed: 0 });
  }, 180_000);

  it("5 failed logins spread over the processes lock the address in every process", async () => {
    const { bases } = await startServes(n, fileDb(), writeConfig(60));
    expect(await failLogins(bases, 5)).toEqual([403, 403, 403, 403, 403]);
    for (const base of bases) {
      const res = await fetch(`${base}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json", ...APP }, body: JSON.stringify(USER) });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  }, 180_000);

  it("the throttle holds for the service: 5 a minute over all processes, not 5 each", async () => {
    const { bases } = await startServes(n, fileDb(), writeConfig(5));
    const key = await login(bases[0]!);
    const statuses = await unattributedReads(bases, key, 5 * n + 3);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
  }, 180_000);
});

describe("3 serve processes writing to one SQLite file at once", () => {
  it("answer every create with 201: no 5xx, no busy error", async () => {
    const { bases } = await startServes(3, fileDb(), writeConfig(60));
    const key = await login(bases[0]!);
    const statuses = await concurrentCreates(bases, key, 40, 6);
    expect(statuses).toHaveLength(120);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const list = await fetch(`${bases[2]}/api/v1/${FLOCK}/person/?last_name=Writer&page_size=1`, { headers: { authorization: `Bearer ${key}`, ...APP } });
    expect(((await list.json()) as { total: number }).total).toBe(120);
  }, 180_000);
});

describe("serve --processes 2", () => {
  /** Starts the primary; its base URL and the two pids it printed. */
  const startCluster = async (db: string, config?: string): Promise<{ p: CliProcess; base: string; pids: number[] }> => {
    const p = startCli(["serve", "--processes", "2", "--port", "0", "--db", db, ...(config ? ["--config", config] : [])]);
    const line = await p.line(/listening on http:\/\//, 60_000);
    const base = /listening on (http:\/\/\S+)/.exec(line)![1]!;
    const pids = /2 processes: (\d+), (\d+)/.exec(line)!.slice(1).map(Number);
    return { p, base, pids };
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const pidsInLog = (p: CliProcess) => new Set(p.stdout.filter((l) => l.startsWith("{")).map((l) => (JSON.parse(l) as { pid: number }).pid));

  it("answers through both processes on one port, in one access log stream", async () => {
    const { p, base, pids } = await startCluster(fileDb());
    expect(pids[0]).not.toBe(pids[1]);
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/api/v1/ping/`)).status).toBe(200);
    await p.line(/"path":"\/api\/v1\/ping\/"/);
    expect(pidsInLog(p)).toEqual(new Set(pids));
    // On the empty database the first admin's credentials were printed once, by the primary.
    expect(p.stdout.filter((l) => l.includes("shown only this once"))).toHaveLength(1);
    p.child.kill("SIGTERM");
    expect(await p.exited(30_000)).toBe(0);
  }, 120_000);

  it("SIGTERM: a request in flight finishes, then every process exits", async () => {
    const { p, base, pids } = await startCluster(fileDb(), writeConfig(1000));
    const key = await login(base);
    const body = JSON.stringify({ first_name: "Slow", last_name: "Upload" });
    const url = new URL(`${base}/api/v1/${FLOCK}/person/`);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...APP };
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on("error", reject);
      req.on("response", (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      });
    });
    await new Promise<void>((r) => req.write(body.slice(0, 10), () => r()));
    // Wait until a process has taken the request (its access log line comes only at the end).
    await new Promise((r) => setTimeout(r, 300));
    p.child.kill("SIGTERM");
    await p.line(/SIGTERM received/);
    await new Promise((r) => setTimeout(r, 300));
    req.end(body.slice(10));
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text).data.first_name).toBe("Slow");
    expect(await p.exited(30_000)).toBe(0);
    expect(p.stdout.at(-1)).toBe("records-service: stopped");
    expect(pids.filter(alive)).toEqual([]);
  }, 120_000);

  it("a process killed with SIGKILL is replaced, and the port keeps answering", async () => {
    const { p, base, pids } = await startCluster(fileDb());
    process.kill(pids[0]!, "SIGKILL");
    const line = await p.line(new RegExp(`listening in place of ${pids[0]}`), 60_000);
    const replacement = Number(/process (\d+) listening/.exec(line)![1]);
    expect(alive(replacement)).toBe(true);
    expect(p.stderr.join("\n")).toContain(`process ${pids[0]} ended (signal SIGKILL)`);
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/api/v1/ping/`)).status).toBe(200);
    p.child.kill("SIGTERM");
    expect(await p.exited(30_000)).toBe(0);
    expect([pids[1]!, replacement].filter(alive)).toEqual([]);
  }, 120_000);
});
