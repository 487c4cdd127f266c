import { describe, expect, it } from "vitest";
import { rejection, setup } from "../records/test-helpers.js";
import { openChanges } from "./feed.js";

/** A wait that returns at once but lets the test interleave writes between polls. */
const tick = () => Promise.resolve();

async function take<T>(it: AsyncIterator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < n) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

describe("engine.changes", () => {
  it("replays every write kind after since, with the fields that changed", async () => {
    const { engine } = await setup();
    const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    await engine.update("demo", "person", ada.id, { last_name: "Byron" });
    await engine.delete("demo", "person", ada.id);
    await engine.restore("demo", "person", ada.id);
    const stop = new AbortController();
    const events = await take(engine.changes("demo", { since: 0, types: ["person"], wait: tick, signal: stop.signal }), 4);
    stop.abort();
    expect(events.map((e) => [e.data.state, e.data.version])).toEqual([
      ["updated", 1],
      ["updated", 2],
      ["deleted", 3],
      ["updated", 4],
    ]);
    expect(events[0]!.data.uri).toBe(`/demo/person/${ada.id}/`);
    expect(events[1]!.data.fields).toEqual(expect.arrayContaining(["last_name", "formatted_name"]));
    expect(events[1]!.data.fields).not.toContain("first_name");
    // Ids are the flock's own sequence: the data events in between took ids too.
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
  });

  it("without since, follows only what is committed from now on", async () => {
    const { engine } = await setup();
    await engine.create("demo", "journal", { n: 1 });
    const stop = new AbortController();
    const feed = engine.changes("demo", { wait: tick, signal: stop.signal });
    const first = feed.next();
    await engine.create("demo", "journal", { n: 2 });
    const r = await first;
    stop.abort();
    expect(r.value?.data.fields).toEqual(["n"]);
    expect((await feed.next()).done).toBe(true);
  });

  it("reads in batches and resumes exactly after the last id taken", async () => {
    const { engine } = await setup();
    for (let n = 1; n <= 7; n++) await engine.create("demo", "journal", { n });
    const stop = new AbortController();
    const firstThree = await take(engine.changes("demo", { since: 0, batch: 2, wait: tick, signal: stop.signal }), 3);
    const rest = await take(engine.changes("demo", { since: firstThree.at(-1)!.id, batch: 2, wait: tick, signal: stop.signal }), 4);
    stop.abort();
    expect([...firstThree, ...rest].map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it.each([
    { name: "unknown flock", flock: "nope", since: 0, status: 404 },
    { name: "since ahead of the feed", flock: "demo", since: 5, status: 400 },
    { name: "negative since", flock: "demo", since: -1, status: 400 },
  ])("refuses: $name", async ({ flock, since, status }) => {
    const { engine } = await setup();
    await engine.create("demo", "journal", { n: 1 });
    expect((await rejection(openChanges(engine.context.storage, flock, { since }))).status).toBe(status);
  });

  it("a position older than the retention is 410 naming the oldest id kept", async () => {
    const { engine, storage, clock } = await setup();
    await engine.create("demo", "journal", { n: 1 });
    clock.advance(60_000);
    await engine.create("demo", "journal", { n: 2 });
    await storage.purgeChanges("2026-01-15T10:00:30.000000");
    const e = await rejection(openChanges(storage, "demo", { since: 0 }));
    expect(e.status).toBe(410);
    expect(e.detail).toContain("oldest id kept is 2");
    expect((await openChanges(storage, "demo", { since: 1 })).after).toBe(1);
  });
});
