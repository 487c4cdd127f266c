/**
 * The cached account lookups never answer with a stale row: a write on the same
 * connection is seen by the next lookup, a commit by another connection (another process,
 * e.g. the CLI) once the recheck interval has passed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createAccountCache } from "./account-cache.js";
import { createAccountStore } from "./accounts.js";
import { createSqliteStorage } from "./driver.js";
import { openDatabase } from "./open.js";

const dir = mkdtempSync(join(tmpdir(), "records-account-cache-"));
const path = join(dir, "records.db");
const server = createSqliteStorage({ path });
const cli = createSqliteStorage({ path });
// The same file through a bare cache whose time the test moves.
let time = 0;
const db = openDatabase({ path });
const cache = createAccountCache(db.$client, createAccountStore(db), { recheckMs: 25, now: () => time });
afterAll(async () => {
  db.$client.close();
  await server.close();
  await cli.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (flocks: string[]) => ({ username: "ada", passwordHash: "x", flocks, role: "core" as const, created: "2026-01-01T00:00:00.000000" });
const key = (expires: string | null) => ({ tokenHash: "h1", username: "ada", created: "2026-01-01T00:00:00.000000", expires });

describe("cached account lookups", () => {
  it("see another connection's commits once the recheck interval has passed", async () => {
    expect(cache.getUser("ada")).toBeUndefined();
    await cli.putUser(user(["demo"]));
    expect(cache.getUser("ada")?.flocks).toEqual(["demo"]); // not cached while absent
    await cli.putUser(user(["demo", "other"]));
    time += 24;
    expect(cache.getUser("ada")?.flocks).toEqual(["demo"]); // within the interval
    time += 1;
    expect(cache.getUser("ada")?.flocks).toEqual(["demo", "other"]);

    await cli.putApiKey(key(null));
    expect(cache.getApiKey("h1")?.expires).toBeNull();
    await cli.putApiKey(key("2026-01-02T00:00:00.000000"));
    time += 25;
    expect(cache.getApiKey("h1")?.expires).toBe("2026-01-02T00:00:00.000000");
    await cli.deleteApiKey("h1");
    time += 25;
    expect(cache.getApiKey("h1")).toBeUndefined();

    await cli.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    expect(cache.getFlock("demo")?.name).toBe("Demo");
    await cli.renameFlock("demo", "Renamed");
    time += 25;
    expect(cache.getFlock("demo")?.name).toBe("Renamed");
    // The storage itself (default interval, real time) answers from the file too.
    expect((await server.getFlock("demo"))?.name).toBe("Renamed");
  });

  it("see this connection's own writes", async () => {
    await server.putApiKey(key(null));
    expect((await server.getApiKey("h1"))?.username).toBe("ada");
    await server.deleteApiKey("h1");
    expect(await server.getApiKey("h1")).toBeUndefined();
    await server.renameFlock("demo", "Again");
    expect((await server.getFlock("demo"))?.name).toBe("Again");
  });

  it("hand out copies that cannot change the cache", async () => {
    const first = (await server.getUser("ada"))!;
    first.flocks.push("*");
    expect((await server.getUser("ada"))?.flocks).toEqual(["demo", "other"]);
  });
});

describe("cached account lookups across record writes", () => {
  const file = join(dir, "counted.db");
  const own = openDatabase({ path: file });
  const store = createAccountStore(own);
  let reads = 0;
  const counted = { ...store, getApiKey: (hash: string) => (reads++, store.getApiKey(hash)), getUser: (name: string) => (reads++, store.getUser(name)) };
  let now = 0;
  const cached = createAccountCache(own.$client, counted, { recheckMs: 25, now: () => now });
  const other = createSqliteStorage({ path: file });
  afterAll(async () => {
    own.$client.close();
    await other.close();
  });
  const thing = (n: number) => ({
    id: n.toString(16).padStart(24, "0"),
    flock: "demo",
    type: "thing",
    state: "updated" as const,
    data: { n },
    displayValue: "",
    created: "2026-01-01T00:00:00.000000",
    lastUpdated: "2026-01-01T00:00:00.000000",
    version: 1,
  });

  it("keep their rows when only records change (here or in another connection), and drop them when an account row does", async () => {
    await other.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    await other.putUser(user(["demo"]));
    await other.putApiKey(key(null));
    now += 25;
    expect(cached.getApiKey("h1")?.username).toBe("ada");
    expect(reads).toBe(1);
    // A record written by another connection, then by this one: the count of account changes stays.
    await other.apply({ records: [{ kind: "insert", record: thing(1) }] });
    now += 25;
    expect(cached.getApiKey("h1")?.username).toBe("ada");
    own.$client.prepare("UPDATE records SET version = 2").run();
    expect(cached.getApiKey("h1")?.username).toBe("ada");
    expect(reads).toBe(1);
    // An account row changed elsewhere: read again.
    await other.putApiKey(key("2026-02-01T00:00:00.000000"));
    now += 25;
    expect(cached.getApiKey("h1")?.expires).toBe("2026-02-01T00:00:00.000000");
    expect(reads).toBe(2);
  });

  it("never keep a row read inside a transaction that is rolled back once another change is committed", async () => {
    const raw = own.$client;
    const insertEve = raw.prepare("INSERT INTO users (username, password_hash, flocks, role, created) VALUES ('eve', 'x', '[]', 'core', 't')");
    expect(() =>
      raw.transaction(() => {
        insertEve.run();
        expect(cached.getUser("eve")?.username).toBe("eve");
        throw new Error("rolled back");
      })(),
    ).toThrow("rolled back");
    // Another account change is committed after the rollback.
    await other.putUser({ ...user(["demo"]), username: "zed" });
    now += 25;
    expect(cached.getUser("eve")).toBeUndefined();
    expect(cached.getUser("zed")?.username).toBe("zed");
  });
});

describe("cached account lookups after a restore", () => {
  it("drop a key the restored database does not hold, though both files saw as many account changes", async () => {
    const live = join(dir, "live.db");
    const backup = join(dir, "backup.db");
    const [a, b] = [createSqliteStorage({ path: live }), createSqliteStorage({ path: backup })];
    for (const [s, hash] of [[a, "k1"], [b, "k2"]] as const) {
      await s.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
      await s.putUser(user(["demo"]));
      await s.putApiKey({ ...key(null), tokenHash: hash });
    }
    await b.close();
    expect(await a.getApiKey("k1")).toBeDefined(); // cached
    // records-service restore: the backup written over the live file through SQLite's backup API.
    const source = new Database(backup, { readonly: true });
    await source.backup(live);
    source.close();
    await a.syncChanges();
    expect(await a.getApiKey("k1")).toBeUndefined();
    expect((await a.getApiKey("k2"))?.username).toBe("ada");
    await a.close();
  });
});
