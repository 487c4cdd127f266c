/**
 * End to end (issue 10) on PostgreSQL: 2 and 3 real `serve` processes on one database
 * behave as one service (read-after-write through another process, lockout, throttle,
 * concurrent writers), and `serve --processes 2` answers through both processes. Each
 * test gets a database of its own (lockouts and throttle windows live in the database).
 */
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterEach, describe, expect, inject, it } from "vitest";
import { APP, concurrentCreates, failLogins, FLOCK, login, readAfterWrite, startServes, unattributedReads, USER, writeConfig } from "../e2e/multi-process.js";
import { killAll, startCli } from "../e2e/spawn-cli.js";

const made: TestDatabase[] = [];
const database = async () => {
  const db = await createTestDatabase();
  made.push(db);
  return db.url;
};
afterEach(async () => {
  killAll();
  for (const db of made.splice(0)) await db.drop();
});

describe.skipIf(!inject("pgAvailable"))("several serve processes on one PostgreSQL database", () => {
  describe.each([2, 3])("%i processes", (n) => {
    it("every read through another process sees the acknowledged write: by id and by a filtered list, many rounds, random records", async () => {
      const { bases } = await startServes(n, await database(), writeConfig(60));
      const key = await login(bases[0]!);
      expect(await readAfterWrite(bases, key, 20, 60)).toEqual({ rounds: 60, stale: 0, failed: 0 });
    }, 180_000);

    it("5 failed logins spread over the processes lock the address in every process", async () => {
      const { bases } = await startServes(n, await database(), writeConfig(60));
      expect(await failLogins(bases, 5)).toEqual([403, 403, 403, 403, 403]);
      for (const base of bases) {
        const res = await fetch(`${base}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json", ...APP }, body: JSON.stringify(USER) });
        expect(res.status).toBe(429);
      }
    }, 180_000);

    it("the throttle holds for the service: 5 a minute over all processes, not 5 each", async () => {
      const { bases } = await startServes(n, await database(), writeConfig(5));
      const key = await login(bases[0]!);
      const statuses = await unattributedReads(bases, key, 5 * n + 3);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    }, 180_000);
  });

  it("3 processes writing at once answer every create with 201", async () => {
    const { bases } = await startServes(3, await database(), writeConfig(60));
    const key = await login(bases[0]!);
    const statuses = await concurrentCreates(bases, key, 40, 6);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const list = await fetch(`${bases[1]}/api/v1/${FLOCK}/person/?last_name=Writer&page_size=1`, { headers: { authorization: `Bearer ${key}`, ...APP } });
    expect(((await list.json()) as { total: number }).total).toBe(120);
  }, 180_000);

  it("serve --processes 2 answers through both processes on one port", async () => {
    const p = startCli(["serve", "--processes", "2", "--port", "0", "--db", await database()]);
    const line = await p.line(/listening on http:\/\//, 60_000);
    const base = /listening on (http:\/\/\S+)/.exec(line)![1]!;
    const pids = /2 processes: (\d+), (\d+)/.exec(line)!.slice(1).map(Number);
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/api/v1/ping/`)).status).toBe(200);
    await p.line(/"path":"\/api\/v1\/ping\/"/);
    const answered = new Set(p.stdout.filter((l) => l.startsWith("{")).map((l) => (JSON.parse(l) as { pid: number }).pid));
    expect(answered).toEqual(new Set(pids));
    expect(p.stdout.filter((l) => l.includes("shown only this once"))).toHaveLength(1);
    p.child.kill("SIGTERM");
    expect(await p.exited(30_000)).toBe(0);
  }, 120_000);
});
