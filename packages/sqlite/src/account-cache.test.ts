/**
 * The cached account lookups never answer with a stale row: a write on the same
 * connection is seen by the next lookup, a commit by another connection (another process,
 * e.g. the CLI) once the recheck interval has passed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
