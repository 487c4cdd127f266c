/**
 * The list GET answers from its serialized-response cache while nothing was written: the
 * same status, headers and bytes as without the cache, auth still checked, queries kept
 * apart by their parsed form (a smart date by the day it resolves to), and every write
 * (also by another connection to the same SQLite file, seen at once) makes the next answer
 * fresh. Several real processes: test/e2e/processes.e2e.test.ts (SQLite) and
 * test/postgres/processes.e2e.test.ts list through one process after a write through another.
 */
import { createFakeClock, createRecordEngine, createSequentialIds, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_ADAPTERS } from "./helpers/adapters.js";
import { createTestApp, KEYS, seed } from "./helpers/app.js";

const key = KEYS.alice;
const opened: Storage[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `storage` with its list reads counted, so a test can tell a cache hit from a miss. */
function _counted(storage: Storage): { storage: Storage; lists: () => number } {
  let n = 0;
  opened.push(storage);
  const counted: Storage = {
    ...storage,
    listRecords: (...args) => {
      n += 1;
      return storage.listRecords(...args);
    },
  };
  return { storage: counted, lists: () => n };
}

/** Status, headers and body of a response, for comparing byte for byte. */
async function _whole(res: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

/** The ids of a list answer's results. */
async function _ids(res: Response): Promise<string[]> {
  const body = (await res.json()) as { results: { id: string }[] };
  return body.results.map((r) => r.id);
}

describe.each(STORAGE_ADAPTERS)("list GET cache on %s storage", (_name, make) => {
  it("answers a hit with the same status, headers and bytes as the uncached route, on v1 and v2", async () => {
    const cached = _counted(make());
    const plain = _counted({ ...make(), changeGeneration: () => undefined });
    const a = await createTestApp({ storage: cached.storage });
    const b = await createTestApp({ storage: plain.storage });
    for (const t of [a, b]) {
      await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
      await seed(t, "alpha", "person", { first_name: "Bea", last_name: "Lovelace" });
      await seed(t, "alpha", "person", { first_name: "Cy", last_name: "King" });
    }
    for (const path of ["/api/v1/alpha/person/?last_name=Lovelace", "/api/v2/alpha/person/?last_name=Lovelace&page_size=1&page=2", "/api/v1/alpha/person/?first_name__startswith=B"]) {
      // Twice each: the rate-limit headers count requests, on hits too.
      const uncached = [await _whole(await b.call("GET", path, { key })), await _whole(await b.call("GET", path, { key }))];
      expect(uncached[0]!.status).toBe(200);
      const miss = await _whole(await a.call("GET", path, { key }));
      const before = cached.lists();
      const hit = await _whole(await a.call("GET", path, { key }));
      expect(cached.lists()).toBe(before);
      expect(miss).toEqual(uncached[0]);
      expect(hit).toEqual(uncached[1]);
    }
    expect(plain.lists()).toBe(6);
  });

  it("keeps queries apart, and still checks the key, the flock and the query on a hit", async () => {
    const cached = _counted(make());
    const t = await createTestApp({ storage: cached.storage });
    const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const king = await seed(t, "alpha", "person", { first_name: "Cy", last_name: "King" });
    expect(await _ids(await t.call("GET", "/api/v1/alpha/person/?last_name=Lovelace", { key }))).toEqual([ada]);
    expect(await _ids(await t.call("GET", "/api/v1/alpha/person/?last_name=King", { key }))).toEqual([king]);
    expect(await _ids(await t.call("GET", "/api/v1/alpha/person/?page_size=1", { key }))).toEqual([ada]);
    expect(await _ids(await t.call("GET", "/api/v1/alpha/person/?page_size=1&page=2", { key }))).toEqual([king]);
    expect(await _ids(await t.call("GET", "/api/v2/alpha/person/?page_size=1&page=2", { key }))).toEqual([king]);
    expect(await _ids(await t.call("GET", "/api/v1/alpha/person/?last_name=Lovelace", { key }))).toEqual([ada]);
    const lists = cached.lists();
    expect((await t.call("GET", "/api/v1/alpha/person/?last_name=Lovelace")).status).toBe(401);
    expect((await t.call("GET", "/api/v1/alpha/person/?last_name=Lovelace", { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/nosuchflock/person/?last_name=Lovelace", { key })).status).toBe(404);
    expect((await t.call("GET", "/api/v1/alpha/person/?last_name__nope=Lovelace", { key })).status).toBe(400);
    expect(cached.lists()).toBe(lists);
  });

  it("keys a smart date by the day it resolves to", async () => {
    const t = await createTestApp({ storage: _counted(make()).storage });
    await seed(t, "alpha", "person", { first_name: "Ada" });
    const path = "/api/v1/alpha/person/?created__gte=today";
    expect(await _ids(await t.call("GET", path, { key }))).toHaveLength(1);
    t.clock.advance(2 * 86_400_000); // nothing written since: the same generation
    expect(await _ids(await t.call("GET", path, { key }))).toEqual([]);
  });

  it.each([
    ["a create", (t: Awaited<ReturnType<typeof createTestApp>>) => t.call("POST", "/api/v1/alpha/person/", { key, json: { first_name: "Dee", last_name: "Lovelace" } }), 201],
    ["an update", (t: Awaited<ReturnType<typeof createTestApp>>, id: string) => t.call("PATCH", `/api/v1/alpha/person/${id}`, { key, json: { last_name: "King" } }), 200],
    ["a delete", (t: Awaited<ReturnType<typeof createTestApp>>, id: string) => t.call("DELETE", `/api/v1/alpha/person/${id}`, { key }), 200],
    ["a write to another type", (t: Awaited<ReturnType<typeof createTestApp>>) => t.call("POST", "/api/v1/alpha/membership/", { key, json: { membership_number: "7" } }), 201],
  ] as const)("answers fresh after %s", async (_what, write, status) => {
    const cached = _counted(make());
    const t = await createTestApp({ storage: cached.storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const path = "/api/v1/alpha/person/?last_name=Lovelace";
    const first = await (await t.call("GET", path, { key })).text();
    expect(await (await t.call("GET", path, { key })).text()).toBe(first);
    const lists = cached.lists();
    t.clock.advance(1000);
    expect((await write(t, id)).status).toBe(status);
    await t.call("GET", path, { key });
    expect(cached.lists()).toBe(lists + 1);
  });
});

describe("list GET cache on a SQLite file written by another connection", () => {
  it("answers fresh at once, with the change watch's clock standing still (every request checks the data version)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-list-cache-"));
    dirs.push(dir);
    const path = join(dir, "records.db");
    let time = 0;
    const server = _counted(createSqliteStorage({ path, now: () => time }));
    const t = await createTestApp({ storage: server.storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const url = "/api/v1/alpha/person/?last_name=King";
    expect(await _ids(await t.call("GET", url, { key }))).toEqual([]);
    time += 100;
    expect(await _ids(await t.call("GET", url, { key }))).toEqual([]);

    const cli = createSqliteStorage({ path });
    opened.push(cli);
    const other = createRecordEngine({ storage: cli, clock: createFakeClock("2026-01-15T10:00:05.000Z"), ids: createSequentialIds() });
    await other.update("alpha", "person", id, { last_name: "King" });
    const lists = server.lists();
    expect(await _ids(await t.call("GET", url, { key }))).toEqual([id]);
    expect(server.lists()).toBe(lists + 1);
    // Unchanged since: from the cache again.
    expect(await _ids(await t.call("GET", url, { key }))).toEqual([id]);
    expect(server.lists()).toBe(lists + 1);
  });
});
