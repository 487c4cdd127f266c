/**
 * The change feed over HTTP (`app.request()`): the events and their ids, resuming with
 * `Last-Event-ID` or `since`, the type filter, the key rules, bad positions (400, 410),
 * heartbeats and the bounded buffer (with fake timers), and shutdown.
 */
import { describe, expect, it } from "vitest";
import type { SseTimers } from "../src/http/sse-stream.js";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";
import { readSse } from "./helpers/sse.js";

/** Timers the test drives: `beat()` runs the heartbeat, waits resolve at once (or never). */
function fakeTimers(opts: { stallNever?: boolean } = {}) {
  const beats: (() => void)[] = [];
  const timers: SseTimers = {
    every(_ms, fn) {
      beats.push(fn);
      return () => beats.splice(beats.indexOf(fn), 1);
    },
    wait: (_ms, signal) =>
      new Promise((resolve) => {
        if (!opts.stallNever) setImmediate(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
      }),
  };
  return { timers, beat: () => beats.forEach((f) => f()), beating: () => beats.length };
}

const feed = (t: TestApp, path: string, key: string = KEYS.alice, headers: Record<string, string> = {}) =>
  t.call("GET", path, { key, headers: { accept: "text/event-stream", ...headers } });

describe("GET /api/v1/{flock}/changes/", () => {
  it("serves one event per committed change with id and {uri, resource_type, state, version, changed_at, fields}", async () => {
    const t = await createTestApp({ changes: { pollMs: 1 } });
    const id = await seed(t, "alpha", "journal", { kind: "note", subject: "a" });
    await t.engine.update("alpha", "journal", id, { subject: "b" });
    await t.engine.delete("alpha", "journal", id);
    const res = await feed(t, "/api/v1/alpha/changes/?since=0");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const sse = readSse(res.body!);
    const events = await sse.events(3);
    await sse.cancel();
    expect(events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(events[0]!.data).toEqual({
      uri: `/alpha/journal/${id}/`,
      resource_type: "journal",
      state: "updated",
      version: 1,
      changed_at: "2026-01-15T10:00:00.000000",
      fields: ["kind", "subject"],
    });
    expect(events[1]!.data.fields).toEqual(["subject"]);
    expect(events[2]!.data).toMatchObject({ state: "deleted", version: 3, fields: [] });
    expect(sse.positions[0]).toBe(0);
  });

  it("without a position starts at the present, announces it, then streams new commits", async () => {
    const t = await createTestApp({ changes: { pollMs: 1 } });
    await seed(t, "alpha", "journal", { kind: "old" });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes")).body!);
    const next = sse.events(1);
    await seed(t, "alpha", "journal", { kind: "new" });
    const [e] = await next;
    await sse.cancel();
    expect(sse.positions).toEqual([1]);
    expect(e!.id).toBe(2);
  });

  it("Last-Event-ID resumes after that id (over since=), with no gap and no repeat", async () => {
    const t = await createTestApp({ changes: { pollMs: 1 } });
    for (let n = 0; n < 5; n++) await seed(t, "alpha", "journal", { n });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/?since=0", KEYS.alice, { "last-event-id": "3" })).body!);
    const events = await sse.events(2);
    await sse.cancel();
    expect(events.map((e) => e.id)).toEqual([4, 5]);
  });

  it("type= keeps only those resource types (repeated or comma-separated)", async () => {
    const t = await createTestApp({ changes: { pollMs: 1 } });
    await seed(t, "alpha", "journal", { n: 1 });
    await seed(t, "alpha", "person", { first_name: "Ada", last_name: "L" });
    await seed(t, "alpha", "journal", { n: 2 });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/?since=0&type=journal")).body!);
    const events = await sse.events(2);
    await sse.cancel();
    expect(events.map((e) => e.data.resource_type)).toEqual(["journal", "journal"]);
    const both = readSse((await feed(t, "/api/v1/alpha/changes/?since=0&type=journal,person")).body!);
    expect((await both.events(3)).map((e) => e.data.resource_type)).toContain("person");
    await both.cancel();
  });

  it.each([
    { name: "no key", key: "", path: "/api/v1/alpha/changes/", status: 401 },
    { name: "a self-service token", key: KEYS.member, path: "/api/v1/alpha/changes/", status: 403 },
    { name: "another flock's key", key: KEYS.bob, path: "/api/v1/alpha/changes/", status: 403 },
    { name: "an unknown flock", key: KEYS.admin, path: "/api/v1/nope/changes/", status: 404 },
    { name: "since not a number", key: KEYS.alice, path: "/api/v1/alpha/changes/?since=abc", status: 400 },
    { name: "since negative", key: KEYS.alice, path: "/api/v1/alpha/changes/?since=-1", status: 400 },
    { name: "since ahead of the feed", key: KEYS.alice, path: "/api/v1/alpha/changes/?since=99", status: 400 },
    { name: "a bad type name", key: KEYS.alice, path: "/api/v1/alpha/changes/?type=Bad!", status: 400 },
  ])("refuses $name with $status in the v1 error shape", async ({ key, path, status }) => {
    const t = await createTestApp();
    const res = await feed(t, path, key);
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
  });

  it("a bad Last-Event-ID is 400", async () => {
    const t = await createTestApp();
    const res = await feed(t, "/api/v1/alpha/changes/", KEYS.alice, { "last-event-id": "x1" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_detail: string }).error_detail).toContain("Last-Event-ID");
  });

  it("a position older than the retention is 410 naming the oldest id kept", async () => {
    const t = await createTestApp();
    await seed(t, "alpha", "journal", { n: 1 });
    t.clock.advance(8 * 86_400_000);
    await seed(t, "alpha", "journal", { n: 2 });
    await t.storage.purgeChanges("2026-01-20T00:00:00.000000");
    const res = await feed(t, "/api/v1/alpha/changes/?since=0");
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ error: "changes no longer kept", error_detail: expect.stringContaining("oldest id kept is 2") });
    expect((await feed(t, "/api/v1/alpha/changes/?since=1")).status).toBe(200);
  });

  it("sends a heartbeat comment on the timer", async () => {
    const clock = fakeTimers({ stallNever: true });
    const t = await createTestApp({ changes: { pollMs: 1, timers: clock.timers } });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/")).body!);
    await sse.events(0);
    clock.beat();
    const next = sse.events(1);
    await seed(t, "alpha", "journal", { n: 1 });
    await next;
    await sse.cancel();
    expect(sse.comments).toContain("heartbeat");
    expect(clock.beating()).toBe(0); // the timer is stopped with the stream
  });

  it("a client that leaves the buffer full is cut off with what was buffered, and resumes without gap", async () => {
    const clock = fakeTimers();
    const t = await createTestApp({ changes: { pollMs: 1, timers: clock.timers }, settings: { changes: { maxBufferBytes: 600 } } });
    for (let n = 0; n < 40; n++) await seed(t, "alpha", "journal", { n });
    const res = await feed(t, "/api/v1/alpha/changes/?since=0");
    const first = readSse(res.body!);
    const got = await first.events(2);
    // Nobody reads while the stall wait runs out: the stream is cut, its buffer dropped.
    await new Promise((r) => setTimeout(r, 50));
    await expect(first.drain()).rejects.toThrow(/did not read/);
    expect(got.length).toBe(2);
    const rest = readSse((await feed(t, "/api/v1/alpha/changes/", KEYS.alice, { "last-event-id": String(got.at(-1)!.id) })).body!);
    const more = await rest.events(38);
    await rest.cancel();
    expect([...got, ...more].map((e) => e.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("shutdown ends open streams", async () => {
    const shutdown = new AbortController();
    const t = await createTestApp({ changes: { pollMs: 1, shutdown: shutdown.signal } });
    const sse = readSse((await feed(t, "/api/v1/alpha/changes/")).body!);
    await sse.events(0);
    shutdown.abort();
    await sse.drain();
    expect(sse.ended()).toBe(true);
  });
});
