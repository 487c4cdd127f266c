/**
 * The single-record GET answers from its serialized-response cache while nothing was
 * written: the same status, headers and bytes as without the cache, auth still checked,
 * and every kind of write (also to a referenced record, also by another connection to the
 * same SQLite file, seen at once) makes the next answer fresh.
 */
import { createFakeClock, createMemoryStorage, createRecordEngine, createSequentialIds, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_ADAPTERS } from "./helpers/adapters.js";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";

const key = KEYS.alice;
const opened: Storage[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `storage` with its record reads counted, so a test can tell a cache hit from a miss. */
function _counted(storage: Storage): { storage: Storage; reads: () => number } {
  let n = 0;
  opened.push(storage);
  const counted: Storage = {
    ...storage,
    getRecord: (...args) => {
      n += 1;
      return storage.getRecord(...args);
    },
  };
  return { storage: counted, reads: () => n };
}

/** The URI of person `id`, as a reference holds it. */
async function _uri(t: TestApp, id: string): Promise<string> {
  return (await t.engine.toSingle(await t.engine.get("alpha", "person", id))).uri as string;
}

/** Status, headers and body of a response, for comparing byte for byte. */
async function _whole(res: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

describe.each(STORAGE_ADAPTERS)("single-record GET cache on %s storage", (_name, make) => {
  it("answers a hit with the same status, headers and bytes as the uncached route, on v1 and v2", async () => {
    const cached = _counted(make());
    const plain = _counted({ ...make(), changeGeneration: () => undefined });
    const a = await createTestApp({ storage: cached.storage });
    const b = await createTestApp({ storage: plain.storage });
    const ids: string[] = [];
    for (const t of [a, b]) {
      const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
      ids.push(await seed(t, "alpha", "membership", { member: await _uri(t, ada), membership_number: "7" }));
    }
    expect(ids[0]).toBe(ids[1]);
    for (const surface of ["v1", "v2"]) {
      const path = `/api/${surface}/alpha/membership/${ids[0]}`;
      // Twice each: the rate-limit headers count requests, on hits too.
      const uncached = [await _whole(await b.call("GET", path, { key })), await _whole(await b.call("GET", path, { key }))];
      expect(uncached[0]!.status).toBe(200);
      const miss = await _whole(await a.call("GET", path, { key }));
      const before = cached.reads();
      const hit = await _whole(await a.call("GET", path, { key }));
      expect(cached.reads()).toBe(before);
      expect(miss).toEqual(uncached[0]);
      expect(hit).toEqual(uncached[1]);
    }
  });

  it("answers a person's miss (spliced from the stored text on SQLite) with the uncached route's bytes", async () => {
    const cached = _counted(make());
    const plain = _counted({ ...make(), changeGeneration: () => undefined });
    const a = await createTestApp({ storage: cached.storage });
    const b = await createTestApp({ storage: plain.storage });
    const bodies = [{ first_name: "Ada", last_name: "Lovelace", tags: ["a", "b"] }, { last_name: 'Say "hi" \\ \u0000', notes: "x:null" }, {}];
    for (const body of bodies) {
      const ids = [await seed(a, "alpha", "person", body), await seed(b, "alpha", "person", body)];
      expect(ids[0]).toBe(ids[1]);
      for (const surface of ["v1", "v2"]) {
        const path = `/api/${surface}/alpha/person/${ids[0]}`;
        const uncached = await _whole(await b.call("GET", path, { key }));
        expect(uncached.status).toBe(200);
        expect(await _whole(await a.call("GET", path, { key }))).toEqual(uncached);
      }
    }
  });

  it("still checks the key and the flock on a hit", async () => {
    const t = await createTestApp({ storage: _counted(make()).storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    expect((await t.call("GET", `/api/v1/alpha/person/${id}`, { key })).status).toBe(200);
    expect((await t.call("GET", `/api/v1/alpha/person/${id}`)).status).toBe(401);
    expect((await t.call("GET", `/api/v1/alpha/person/${id}`, { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", `/api/v1/alpha/journal/${id}`, { key })).status).toBe(404);
  });

  it.each([
    ["an update", (t: TestApp, id: string) => t.call("PATCH", `/api/v1/alpha/person/${id}`, { key, json: { last_name: "King" } })],
    ["a delete", (t: TestApp, id: string) => t.call("DELETE", `/api/v1/alpha/person/${id}`, { key })],
    ["a touch", (t: TestApp, id: string) => t.call("POST", `/api/v1/alpha/person/${id}/touch/`, { key })],
    ["an obfuscation", (t: TestApp, id: string) => t.call("PUT", `/api/v1/alpha/person/${id}/obfuscate/`, { key })],
    [
      "a file upload",
      (t: TestApp, id: string) => {
        const form = new FormData();
        form.set("photo", new File([new Uint8Array([137, 80, 78, 71])], "ada.png", { type: "image/png" }));
        return t.call("PUT", `/api/v1/alpha/person/${id}/`, { key, body: form });
      },
    ],
  ])("answers fresh after %s", async (_what, write) => {
    const t = await createTestApp({ storage: _counted(make()).storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const path = `/api/v1/alpha/person/${id}`;
    const first = await (await t.call("GET", path, { key })).text();
    expect(await (await t.call("GET", path, { key })).text()).toBe(first);
    t.clock.advance(1000);
    expect((await write(t, id)).status).toBe(200);
    const after = await (await t.call("GET", path, { key })).text();
    expect(after).not.toBe(first);
    expect(JSON.parse(after)).toEqual(await t.engine.toSingle(await t.engine.get("alpha", "person", id)));
  });

  it("answers fresh after a restore", async () => {
    const t = await createTestApp({ storage: _counted(make()).storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const path = `/api/v1/alpha/person/${id}`;
    await t.call("DELETE", path, { key });
    expect(((await (await t.call("GET", path, { key })).json()) as { meta: { state: string } }).meta.state).toBe("deleted");
    expect((await t.call("POST", `${path}/restore/`, { key })).status).toBe(200);
    expect(((await (await t.call("GET", path, { key })).json()) as { meta: { state: string } }).meta.state).toBe("updated");
  });

  it("answers fresh after a write to a referenced record", async () => {
    const t = await createTestApp({ storage: _counted(make()).storage });
    const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const uri = await _uri(t, ada);
    const m = await seed(t, "alpha", "membership", { member: uri, membership_number: "7" });
    const member = async () =>
      ((await (await t.call("GET", `/api/v1/alpha/membership/${m}`, { key })).json()) as { data: { member: unknown } }).data.member;
    expect(await member()).toEqual({ display_value: "Ada Lovelace", ref: uri });
    await t.call("PATCH", `/api/v1/alpha/person/${ada}`, { key, json: { last_name: "King" } });
    expect(await member()).toEqual({ display_value: "Ada King", ref: uri });
  });
});

describe("single-record GET cache on a SQLite file written by another connection", () => {
  it("answers fresh at once, with the change watch's clock standing still (every request checks the data version)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-response-cache-"));
    dirs.push(dir);
    const path = join(dir, "records.db");
    let time = 0;
    const server = _counted(createSqliteStorage({ path, now: () => time }));
    const t = await createTestApp({ storage: server.storage });
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const url = `/api/v1/alpha/person/${id}`;
    const name = async () => ((await (await t.call("GET", url, { key })).json()) as { data: { last_name: string } }).data.last_name;
    expect(await name()).toBe("Lovelace");
    time += 100;
    expect(await name()).toBe("Lovelace");

    const cli = createSqliteStorage({ path });
    opened.push(cli);
    const other = createRecordEngine({ storage: cli, clock: createFakeClock("2026-01-15T10:00:05.000Z"), ids: createSequentialIds() });
    await other.update("alpha", "person", id, { last_name: "King" });
    const reads = server.reads();
    expect(await name()).toBe("King");
    expect(server.reads()).toBe(reads + 1);
    // Unchanged since: from the cache again.
    expect(await name()).toBe("King");
    expect(server.reads()).toBe(reads + 1);
  });
});

describe("single-record GET cache on memory storage", () => {
  it("moves the change generation on every write", async () => {
    const storage = createMemoryStorage();
    const t = await createTestApp({ storage });
    const g = storage.changeGeneration()!;
    await seed(t, "alpha", "person", { first_name: "Ada" });
    expect(storage.changeGeneration()!).toBeGreaterThan(g);
  });
});
