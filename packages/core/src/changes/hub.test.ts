import { setMaxListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../memory/memory.js";
import type { Storage } from "../storage/storage.js";
import { setup } from "../records/test-helpers.js";
import { openChanges, type ChangeEvent } from "./feed.js";
import { createChangeHub } from "./hub.js";

/** A hub whose ticks the test runs: `step()` lets one tick happen and settles what it woke. */
function manualTicks() {
  const pending: (() => void)[] = [];
  return {
    wait: () => new Promise<void>((resolve) => pending.push(resolve)),
    async step() {
      pending.splice(0).forEach((r) => r());
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    },
  };
}

/** The storage with every readChanges and readChangeHeads call counted. */
function counted(storage: Storage) {
  const reads: { flock: string; after: number; rows: number }[] = [];
  const heads: string[][] = [];
  const s: Storage = {
    ...storage,
    async readChanges(flock, after, limit, types) {
      const page = await storage.readChanges(flock, after, limit, types);
      reads.push({ flock, after, rows: page.changes.length });
      return page;
    },
    async readChangeHeads(flocks) {
      heads.push([...flocks]);
      return storage.readChangeHeads(flocks);
    },
  };
  return { s, reads, heads };
}

async function collect(it: AsyncGenerator<ChangeEvent>, out: ChangeEvent[]): Promise<void> {
  for await (const e of it) out.push(e);
}

describe("change hub", () => {
  it("wakes only the feeds of the flock whose head moved, with one heads read per tick for all feeds", async () => {
    const { storage, engine } = await setup();
    const { s, reads, heads } = counted(storage);
    const ticks = manualTicks();
    const hub = createChangeHub(s, { wait: ticks.wait });
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const got: ChangeEvent[] = [];
    const feeds = await Promise.all(Array.from({ length: 30 }, () => openChanges(s, "demo", { hub, signal: stop.signal, types: ["person"] })));
    const running = feeds.map((f) => collect(f.follow(), got));
    await ticks.step();
    expect(hub.stats()).toMatchObject({ flocks: 1, waiting: 30 });
    const openingReads = reads.length;
    const headReads = heads.length;
    // Writes in another flock: one heads read per tick, no page read for demo's feeds.
    for (let i = 0; i < 5; i++) {
      await engine.create("other", "journal", { n: i });
      await ticks.step();
    }
    expect(reads.length).toBe(openingReads);
    expect(heads.length - headReads).toBeLessThanOrEqual(5);
    expect(heads.every((h) => h.length === 1 && h[0] === "demo")).toBe(true);
    // No write at all: no read of any kind.
    const quiet = heads.length;
    for (let i = 0; i < 5; i++) await ticks.step();
    expect(heads.length).toBe(quiet);
    // A write in demo wakes each feed once: one bounded page each.
    await engine.create("demo", "person", { first_name: "Ada", last_name: "L" });
    await ticks.step();
    expect(reads.length - openingReads).toBe(30);
    expect(got).toHaveLength(30);
    stop.abort();
    await Promise.all(running);
    expect(hub.stats()).toMatchObject({ flocks: 0, waiting: 0 });
  });

  it("a filtered feed moves past the changes it skips: an idle one reads nothing again", async () => {
    const { storage, engine } = await setup();
    for (let i = 0; i < 450; i++) await engine.create("demo", "journal", { n: i });
    const { s, reads } = counted(storage);
    const ticks = manualTicks();
    const hub = createChangeHub(s, { wait: ticks.wait });
    const stop = new AbortController();
    const feed = await openChanges(s, "demo", { hub, since: 0, types: ["nothing"], signal: stop.signal });
    const got: ChangeEvent[] = [];
    const running = collect(feed.follow(), got);
    await ticks.step();
    // The first page came back empty with the head: the feed is at the head, not at 0.
    expect(feed.position()).toBe(450);
    const before = reads.length;
    for (let i = 0; i < 3; i++) {
      await engine.create("demo", "journal", { n: i });
      await ticks.step();
    }
    // One read per wake, each starting at the head it last saw (never from 0 again).
    const wakes = reads.slice(before);
    expect(wakes.length).toBeLessThanOrEqual(3);
    expect(wakes.every((r) => r.after >= 450 && r.rows === 0)).toBe(true);
    expect(feed.position()).toBe(453);
    await engine.create("demo", "person", { first_name: "Ada", last_name: "L" });
    stop.abort();
    await running;
    expect(got).toEqual([]);
  });

  it("a filtered feed still gets every matching change, in order, across pages", async () => {
    const { storage, engine } = await setup();
    const ticks = manualTicks();
    const hub = createChangeHub(storage, { wait: ticks.wait });
    for (let i = 0; i < 30; i++) await engine.create("demo", i % 3 === 0 ? "person" : "journal", i % 3 === 0 ? { first_name: `P${i}`, last_name: "L" } : { n: i });
    const stop = new AbortController();
    const feed = await openChanges(storage, "demo", { hub, since: 0, types: ["person"], batch: 4, signal: stop.signal });
    const got: ChangeEvent[] = [];
    const running = collect(feed.follow(), got);
    await ticks.step();
    for (let i = 0; i < 3; i++) await engine.create("demo", "person", { first_name: `Q${i}`, last_name: "L" });
    await ticks.step();
    stop.abort();
    await running;
    expect(got.map((e) => e.data.resource_type)).toEqual(Array(13).fill("person"));
    expect(got.map((e) => e.id)).toEqual([...got.map((e) => e.id)].sort((a, b) => a - b));
  });

  it("beforeRead runs on every wake and its rejection ends the feed", async () => {
    const { storage, engine } = await setup();
    const ticks = manualTicks();
    const hub = createChangeHub(storage, { wait: ticks.wait });
    let checks = 0;
    const feed = await openChanges(storage, "demo", {
      hub,
      beforeRead: async () => {
        checks += 1;
        if (checks === 2) throw new Error("credential lost");
      },
    });
    const got: ChangeEvent[] = [];
    const running = collect(feed.follow(), got).then(() => undefined, (e: unknown) => e);
    await engine.create("demo", "journal", { n: 1 });
    await ticks.step();
    await engine.create("demo", "journal", { n: 2 });
    await ticks.step();
    expect(await running).toMatchObject({ message: "credential lost" });
    expect(got.map((e) => e.id)).toEqual([1]);
    expect(hub.stats().flocks).toBe(0);
  });

  it("a storage without a generation is polled by heads, once per tick for every feed", async () => {
    const storage = createMemoryStorage();
    const { engine } = await setup(storage);
    const { s, heads } = counted({ ...storage, changeGeneration: () => undefined });
    const ticks = manualTicks();
    const hub = createChangeHub(s, { wait: ticks.wait });
    const stop = new AbortController();
    const feeds = await Promise.all(Array.from({ length: 10 }, () => openChanges(s, "demo", { hub, signal: stop.signal })));
    const got: ChangeEvent[] = [];
    const running = feeds.map((f) => collect(f.follow(), got));
    await ticks.step();
    const before = heads.length;
    await ticks.step();
    await ticks.step();
    expect(heads.length - before).toBe(2);
    await engine.create("demo", "journal", { n: 1 });
    await ticks.step();
    expect(got).toHaveLength(10);
    stop.abort();
    await Promise.all(running);
  });
});
