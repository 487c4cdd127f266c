/**
 * The change generation (`Storage.changeGeneration`), the cached account lookups and the
 * cached kept counts (unfiltered list totals) never answer with a stale row for long: this process's writes are seen at once, another
 * process's commits (another storage, or plain SQL) when their notification arrives, and
 * while the listening connection is lost nothing is cached at all.
 */
import { parseListQuery, type Storage, type StoredRecord } from "@records-service/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChangeWatch, type DatabaseMarks } from "./change-watch.js";
import { createPostgresStorage } from "./driver.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

/** Waits (up to `ms`) until `ok()` holds. */
async function until(ok: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

const key = { tokenHash: "h1", username: "ada", created: "2026-01-01T00:00:00.000000", expires: null };

describe.skipIf(!inject("pgAvailable"))("the change generation on PostgreSQL", () => {
  let db: TestDatabase;
  let server: Storage;
  let cli: Storage;
  /**
   * Settled: the generation held still for a quiet spell, so no notification of an earlier
   * write is still on its way (two reads in a row would always agree; a loaded machine
   * delivers a notification late).
   */
  const steady = async (s: Storage, quietMs = 250) => {
    for (let tries = 0; tries < 40; tries++) {
      const before = s.changeGeneration()!;
      await new Promise((r) => setTimeout(r, quietMs));
      if (s.changeGeneration()! === before) return;
    }
    throw new Error("the change generation never settled");
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await (await db.emptyStorage()).close();
    server = await createPostgresStorage({ url: db.url }, { applicationName: "records-watch-server" });
    cli = await createPostgresStorage({ url: db.url }, { watchChanges: false });
    await steady(server);
  });
  afterAll(async () => {
    await server?.close();
    await cli?.close();
    await db?.drop();
  });

  it("stays the same while nothing is written, and moves at once with this process's writes", async () => {
    const g = server.changeGeneration()!;
    expect(server.changeGeneration()!).toBe(g);
    await server.putSetting("a", "1");
    expect(server.changeGeneration()!).toBeGreaterThan(g);
  });

  it("moves when another process commits, and cached lookups follow", async () => {
    await cli.putApiKey(key);
    await until(async () => (await server.getApiKey("h1")) !== undefined);
    await steady(server);
    const g = server.changeGeneration()!;
    await cli.deleteApiKey("h1");
    await until(() => server.changeGeneration()! !== g);
    expect(await server.getApiKey("h1")).toBeUndefined();
    // Plain SQL (an operator's psql) is seen too: the triggers notify.
    await steady(server);
    const h = server.changeGeneration()!;
    await db.pool.query("UPDATE settings SET value = 'x'");
    await until(() => server.changeGeneration()! !== h);
  });

  it("follows another process's revocation and password change; limit rows move nothing", async () => {
    const user = { username: "ada", passwordHash: "scrypt$old", flocks: ["f1"], role: "core" as const, created: key.created };
    await cli.putUser(user);
    await cli.putApiKey(key);
    await until(async () => (await server.getApiKey("h1")) !== undefined && (await server.getUser("ada")) !== undefined);
    await steady(server);
    // A failed login's bookkeeping (here or in another process) leaves the caches warm.
    const g = server.changeGeneration()!;
    await server.updateLimit("login:ada", Date.now(), () => ({ value: "1", expiresAt: Date.now() + 60_000 }));
    await cli.updateLimit("login:ada", Date.now(), () => ({ value: "2", expiresAt: Date.now() + 60_000 }));
    await new Promise((r) => setTimeout(r, 100));
    expect(server.changeGeneration()!).toBe(g);
    // `user revoke` and a rehash in another process: the server stops answering from memory.
    expect(await cli.deleteApiKeysOf("ada")).toBe(1);
    await until(async () => (await server.getApiKey("h1")) === undefined);
    expect(await cli.replacePasswordHash("ada", "scrypt$old", "scrypt$new")).toBe(true);
    await until(async () => (await server.getUser("ada"))?.passwordHash === "scrypt$new");
  });

  it("keeps list totals from memory only until this process or another writes", async () => {
    const rec = (n: number): StoredRecord => ({
      id: n.toString(16).padStart(24, "0"),
      flock: "f1",
      type: "person",
      state: "updated",
      data: { n },
      displayValue: `r${n}`,
      created: "2026-01-01T00:00:00.000000",
      lastUpdated: "2026-01-01T00:00:00.000000",
      version: 1,
    });
    const insert = (s: Storage, n: number) => s.apply({ records: [{ kind: "insert", record: rec(n) }] });
    const total = async () => (await server.listRecords("f1", "person", parseListQuery(new URLSearchParams(""), { surface: "v1", now: new Date() }))).total;
    await insert(cli, 1);
    await until(async () => (await total()) === 1);
    expect(await total()).toBe(1);
    await insert(server, 2);
    expect(await total()).toBe(2); // this process's write: at once
    await steady(server);
    await insert(cli, 3);
    await until(async () => (await total()) === 3);
  });

  it("keeps account lookups in memory across record writes of both processes, and drops them at another's account write", async () => {
    await cli.putApiKey({ ...key, tokenHash: "kept" });
    await server.syncChanges();
    expect(await server.getApiKey("kept")).toBeDefined();
    // Gone without a trace (replica role: no trigger moves the account number or notifies),
    // so a lookup that still finds it was answered from memory.
    const c = await db.pool.connect();
    try {
      await c.query("SET session_replication_role = replica");
      await c.query("DELETE FROM api_keys WHERE token_hash = 'kept'");
    } finally {
      c.release(true);
    }
    const record = (n: number): StoredRecord => ({
      id: (0x100 + n).toString(16).padStart(24, "0"),
      flock: "f1",
      type: "note",
      state: "updated",
      data: {},
      displayValue: "",
      created: key.created,
      lastUpdated: key.created,
      version: 1,
    });
    await cli.apply({ records: [{ kind: "insert", record: record(1) }] });
    await server.apply({ records: [{ kind: "insert", record: record(2) }] });
    await server.syncChanges();
    expect(await server.getApiKey("kept")).toBeDefined();
    // Any statement on an account table (here a user's) drops the cached lookups at the next sync.
    await cli.putUser({ username: "bob", passwordHash: "x", flocks: [], role: "core", created: key.created });
    await server.syncChanges();
    expect(await server.getApiKey("kept")).toBeUndefined();
  });

  it("moves on every call while the listening connection is lost, and settles once it is back", async () => {
    const killed = await db.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'records-watch-server' AND query LIKE 'LISTEN%'",
    );
    expect(killed.rowCount).toBe(1);
    await until(() => server.changeGeneration()! !== server.changeGeneration()!);
    await steady(server); // reconnected (after about a second)
    const g = server.changeGeneration()!;
    await cli.putSetting("b", "2");
    await until(() => server.changeGeneration()! !== g);
  });

  it("after a sync, every read sees another process's acknowledged write at once (no wait for the notification)", async () => {
    await steady(server);
    for (let i = 0; i < 40; i++) {
      await cli.putApiKey({ ...key, tokenHash: `r${i}` });
      await server.syncChanges();
      expect(await server.getApiKey(`r${i}`)).toBeDefined(); // the cached miss of the previous round is gone
      await server.getApiKey(`r${i + 1}`); // a lookup that may be cached, as a request's would
      await cli.deleteApiKey(`r${i}`);
      await server.syncChanges();
      expect(await server.getApiKey(`r${i}`)).toBeUndefined();
    }
  });

  it("a sync moves the generation only when the snapshot changed, the account generation only when the account number did; calls made during a read share the next one", async () => {
    // The real snapshot moves with any commit on the server (other databases too), so the
    // marks are faked here: answers are released by hand.
    const answers: ((m: DatabaseMarks) => void)[] = [];
    const watch = createChangeWatch({ connectionString: db.url }, { marks: () => new Promise((r) => answers.push(r)) });
    const answer = (i: number, snapshot: string, accounts: string) => answers[i]!({ snapshot, accounts });
    const settled = (p: Promise<void>) => {
      let done = false;
      void p.then(() => (done = true));
      return () => done;
    };
    try {
      await until(() => watch.generation() === watch.generation() && watch.accountGeneration() === watch.accountGeneration());
      const first = watch.sync();
      answer(0, "1:1:", "7");
      await first;
      const g = watch.generation();
      const a = watch.accountGeneration();
      const same = watch.sync();
      answer(1, "1:1:", "7");
      await same;
      expect([watch.generation(), watch.accountGeneration()]).toEqual([g, a]);
      const records = watch.sync();
      answer(2, "2:2:", "7"); // a commit that wrote no account table
      await records;
      expect([watch.generation(), watch.accountGeneration()]).toEqual([g + 1, a]);
      // Three calls while a read is on its way: the read may predate them, so none of them
      // settles with it; the two later calls share one read, begun after it was answered.
      const onItsWay = watch.sync();
      const second = watch.sync();
      const third = watch.sync();
      expect(answers).toHaveLength(4);
      const secondDone = settled(second);
      answer(3, "2:2:", "7");
      await onItsWay;
      await until(() => answers.length === 5);
      expect(secondDone()).toBe(false);
      expect([watch.generation(), watch.accountGeneration()]).toEqual([g + 1, a]);
      answer(4, "3:3:", "8"); // a commit acknowledged before the second call
      await Promise.all([second, third]);
      expect(answers).toHaveLength(5);
      expect([watch.generation(), watch.accountGeneration()]).toEqual([g + 2, a + 1]);
      // A failed read fails only its own callers; the next call reads again.
      const failing = createChangeWatch({ connectionString: db.url }, { marks: () => Promise.reject(new Error("down")) });
      try {
        await expect(failing.sync()).rejects.toThrow("down");
        await expect(failing.sync()).rejects.toThrow("down");
      } finally {
        await failing.close();
      }
      const throwing = createChangeWatch({ connectionString: db.url }, { marks: () => { throw new Error("at once"); } });
      try {
        await expect(throwing.sync()).rejects.toThrow("at once");
      } finally {
        await throwing.close();
      }
      watch.touch();
      expect(watch.accountGeneration()).toBe(a + 1);
      watch.touch(true);
      expect(watch.accountGeneration()).toBe(a + 2);
    } finally {
      await watch.close();
    }
  });

  it("is undefined when not watching, and syncing does nothing", async () => {
    expect(cli.changeGeneration()).toBeUndefined();
    await cli.syncChanges();
    expect(cli.changeGeneration()).toBeUndefined();
  });
});
