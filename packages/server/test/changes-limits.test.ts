/**
 * The change feed's limits over HTTP (issue 20), on every adapter: the caps on open feeds
 * per key and per flock (429 in the error shape, before the stream starts; a closed feed
 * frees its place), the credential re-checked at heartbeats and wakes (revoked, expired,
 * flock lost: an `end` event saying why), the position a filtered feed reaches sent at
 * heartbeats, and the work an idle filtered feed does (none).
 */
import type { Storage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { hashToken } from "../src/auth/tokens.js";
import type { SseTimers } from "../src/http/sse-stream.js";
import { KEYS, seed, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";
import { readSse } from "./helpers/sse.js";

/** Heartbeats the test runs (`beat()`); stall waits never end. */
function fakeTimers() {
  const beats: (() => void)[] = [];
  const timers: SseTimers = {
    every(_ms, fn) {
      beats.push(fn);
      return () => beats.splice(beats.indexOf(fn), 1);
    },
    wait: (_ms, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
  };
  return { timers, beat: () => [...beats].forEach((f) => f()) };
}

const feed = (t: TestApp, path: string, key: string = KEYS.alice) => t.call("GET", path, { key, headers: { accept: "text/event-stream" } });
const settle = async () => {
  for (let i = 0; i < 30; i++) await new Promise((r) => setTimeout(r, 2));
};

describe.each(EVERY_ADAPTER)("change feed limits (%s)", (name) => {
  const ticks = fakeTimers();
  const setup = setupOn(name, { changes: { pollMs: 5, timers: ticks.timers }, settings: { changes: { maxFeedsPerKey: 2, maxFeedsPerFlock: 3 } } });
  const run = adapterAvailable(name) ? it : it.skip;

  run("a key past maxFeedsPerKey gets 429 in the error shape; closing a feed frees its place", async () => {
    const t = await setup();
    const a = readSse((await feed(t, "/api/v1/alpha/changes/")).body!);
    const b = readSse((await feed(t, "/api/v1/alpha/changes/?type=person")).body!);
    const refused = await feed(t, "/api/v1/alpha/changes/");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await refused.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
    expect(body.error_detail).toContain("changes.maxFeedsPerKey");
    // Another key of the flock still gets in; the flock's cap (3) then refuses a fourth.
    const c = readSse((await feed(t, "/api/v1/alpha/changes/", KEYS.admin)).body!);
    const flockFull = await feed(t, "/api/v1/alpha/changes/", KEYS.carol);
    expect(flockFull.status).toBe(429);
    expect(((await flockFull.json()) as Record<string, string>).error_detail).toContain("changes.maxFeedsPerFlock");
    // Another flock is not counted against alpha.
    const beta = await feed(t, "/api/v1/beta/changes/", KEYS.admin);
    expect(beta.status).toBe(200);
    await beta.body!.cancel();
    await a.cancel();
    // The place is given back as the stream ends (one write per row): bounded retries.
    let again = await feed(t, "/api/v1/alpha/changes/");
    for (let i = 0; i < 50 && again.status === 429; i++) {
      await settle();
      again = await feed(t, "/api/v1/alpha/changes/");
    }
    expect(again.status).toBe(200);
    await again.body!.cancel();
    await b.cancel();
    await c.cancel();
  });

  run("a HEAD request holds no place (its body is dropped unread, so a stream behind it would never end)", async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++) {
      const head = await t.call("HEAD", "/api/v1/alpha/changes/", { key: KEYS.alice });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toContain("text/event-stream");
    }
    expect((await t.call("HEAD", "/api/v1/alpha/changes/?since=99", { key: KEYS.alice })).status).toBe(400);
    const a = await feed(t, "/api/v1/alpha/changes/");
    const b = await feed(t, "/api/v1/alpha/changes/");
    expect([a.status, b.status]).toEqual([200, 200]);
    await a.body!.cancel();
    await b.body!.cancel();
  });

  run("a heartbeat while an event waits for room never announces that event's id as the position", async () => {
    const tiny = fakeTimers();
    const t = await setupOn(name, { changes: { pollMs: 5, timers: tiny.timers }, settings: { changes: { maxBufferBytes: 100 } } })();
    await seed(t, "alpha", "journal", { n: 1 });
    const res = await feed(t, "/api/v1/alpha/changes/?since=0");
    // Unread: the opening position fits, the event (larger than the room left) waits.
    await settle();
    tiny.beat();
    await settle();
    const sse = readSse(res.body!);
    const [event] = await sse.events(1);
    expect(event!.id).toBe(1);
    // A client cut off before the event arrived resumes after the last id it saw: still 0.
    expect(sse.positions).toEqual([0]);
    await sse.cancel();
  });

  run("shutdown can await the places its streams give back, and they are free once settled", async () => {
    const releases = new Set<Promise<void>>();
    const shutdown = new AbortController();
    const t = await setupOn(name, { changes: { pollMs: 5, timers: fakeTimers().timers, shutdown: shutdown.signal, releases }, settings: { changes: { maxFeedsPerKey: 2 } } })();
    const a = await feed(t, "/api/v1/alpha/changes/");
    const b = await feed(t, "/api/v1/alpha/changes/");
    expect([a.status, b.status]).toEqual([200, 200]);
    shutdown.abort();
    // The streams end; each gives its place back through `releases`, which shutdown awaits.
    for (let i = 0; i < 50 && releases.size < 2; i++) await settle();
    expect(releases.size).toBe(2);
    await Promise.allSettled([...releases]);
    // Both places are free at once: two more feeds of the key are let in (their streams end at once).
    const again = [await feed(t, "/api/v1/alpha/changes/"), await feed(t, "/api/v1/alpha/changes/")];
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    await Promise.all([a.body!.cancel(), b.body!.cancel(), ...again.map((r) => r.body!.cancel())]);
  });

  run("a refused position (400, 410) takes no place", async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++) expect((await feed(t, "/api/v1/alpha/changes/?since=99")).status).toBe(400);
    const ok = await feed(t, "/api/v1/alpha/changes/");
    expect(ok.status).toBe(200);
    await ok.body!.cancel();
  });

  run.each([
    { what: "the key revoked (user revoke)", lose: (s: Storage) => s.deleteApiKeysOf("alice"), reason: "unauthorized", detail: /not valid/ },
    {
      what: "the user losing the flock",
      lose: async (s: Storage) => s.putUser({ ...(await s.getUser("alice"))!, flocks: ["beta"] }),
      reason: "forbidden",
      detail: /no access to flock "alpha"/,
    },
  ])("ends at the next heartbeat with an end event after $what", async ({ lose, reason, detail }) => {
    const t = await setup();
    await seed(t, "alpha", "journal", { n: 1 });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/?since=0")).body!);
    expect(await sse.events(1)).toHaveLength(1);
    await lose(t.storage);
    ticks.beat();
    await sse.drain();
    expect(sse.ended()).toBe(true);
    expect(sse.ends).toEqual([{ reason, detail: expect.stringMatching(detail), last_event_id: 1 }]);
  });

  run("ends on the wake after a revoke, before any change is sent", async () => {
    const t = await setup();
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/")).body!);
    await sse.events(0);
    await t.storage.deleteApiKeysOf("alice");
    await seed(t, "alpha", "journal", { n: 1 });
    const events = await sse.drain();
    expect(events).toEqual([]);
    expect(sse.ends).toMatchObject([{ reason: "unauthorized" }]);
  });

  run("a wake after a revoke does not take the answer of a check that read the key before it", async () => {
    const t = await setup();
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/")).body!);
    await sse.events(0);
    // The heartbeat's check reads the key (still valid), and its answer is held back.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let armed = true;
    const getApiKey = t.storage.getApiKey.bind(t.storage);
    t.storage.getApiKey = async (hash) => {
      const key = await getApiKey(hash);
      if (armed) {
        armed = false;
        await held;
      }
      return key;
    };
    ticks.beat();
    await settle();
    expect(armed).toBe(false);
    await t.storage.deleteApiKeysOf("alice");
    await seed(t, "alpha", "journal", { n: 1 });
    await settle();
    release();
    // The next event, or none when the stream ends first.
    const events = await sse.events(1);
    expect(events).toEqual([]);
    expect(sse.ends).toMatchObject([{ reason: "unauthorized" }]);
    await sse.cancel();
  });

  run("ends at the heartbeat after the key expired by the service clock", async () => {
    const t = await setup();
    await t.storage.putApiKey({ tokenHash: hashToken("9".repeat(64)), username: "alice", created: "2026-01-15T10:00:00.000000", expires: "2026-01-15T11:00:00.000000" });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/", "9".repeat(64))).body!);
    await sse.events(0);
    ticks.beat();
    await settle();
    expect(sse.ended()).toBe(false);
    t.clock.advance(2 * 3_600_000);
    ticks.beat();
    await sse.drain();
    expect(sse.ends).toEqual([{ reason: "unauthorized", detail: "the API key has expired; log in again", last_event_id: 0 }]);
  });

  run("a filtered feed sends the position it moved to at a heartbeat, and reads nothing while idle", async () => {
    const t = await setup();
    for (let i = 0; i < 5; i++) await seed(t, "alpha", "journal", { n: i });
    let reads = 0;
    const readChanges = t.storage.readChanges.bind(t.storage);
    t.storage.readChanges = (...args) => ((reads += 1), readChanges(...args));
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/?since=0&type=person")).body!);
    expect(await sse.until(() => sse.positions.length === 1)).toBe(true);
    ticks.beat();
    expect(await sse.until(() => sse.positions.length === 2)).toBe(true);
    expect(sse.positions).toEqual([0, 5]);
    const opened = reads;
    // Writes in another flock: no read of alpha's log.
    for (let i = 0; i < 3; i++) await seed(t, "beta", "journal", { n: i });
    await settle();
    expect(reads).toBe(opened);
    await sse.cancel();
  });
});
