import { createFakeClock, createMemoryStorage, createRecordEngine } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { settingsOf } from "../settings.js";
import type { WorkerContext } from "../runtime/workers.js";
import { createSchedulerWorker } from "./scheduler.js";

function context(out: string[]): WorkerContext {
  const storage = createMemoryStorage();
  const clock = createFakeClock("2026-03-01T00:00:00.000Z");
  const config = parseConfig({ scheduler: { cron: "* * * * * *" } }); // every second
  return { storage, engine: createRecordEngine({ storage, clock }), settings: settingsOf(config), templates: [], clock, secret: "s", out: (l) => out.push(l) };
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the scheduler worker (croner wiring)", () => {
  it("calls the run on scheduler.cron with the clock's time, reports failures, and stop waits for a run", async () => {
    const out: string[] = [];
    const calls: string[] = [];
    let release: () => void = () => {};
    const worker = createSchedulerWorker(context(out), {
      run: async (now) => {
        calls.push(now.toISOString());
        if (calls.length === 1) throw new Error("database is locked");
        await new Promise<void>((r) => (release = r));
      },
    });
    expect(worker.name).toBe("scheduler");
    worker.start();
    await until(() => calls.length >= 2);
    expect(calls[0]).toBe("2026-03-01T00:00:00.000Z");
    expect(out).toEqual(["scheduler: run failed: database is locked"]);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false); // the second run is still in progress
    release();
    await stopping;
    const n = calls.length;
    await new Promise((r) => setTimeout(r, 1100));
    expect(calls.length).toBe(n); // no run after stop
  });

  it("two processes' workers on one database: only the one holding the scheduler lease runs; the other's ticks do nothing", async () => {
    const out: string[] = [];
    const ctx = context(out);
    const calls: string[] = [];
    let release: () => void = () => {};
    const holding = new Promise<void>((r) => (release = r));
    // The same database and clock, another process: its own worker.
    const first = createSchedulerWorker(ctx, {
      run: async () => {
        calls.push("first");
        await holding;
      },
    });
    const second = createSchedulerWorker({ ...ctx }, { run: async () => void calls.push("second") });
    first.start();
    await until(() => calls.length >= 1);
    second.start();
    // Two ticks of the second while the first holds the lease.
    await new Promise((r) => setTimeout(r, 2100));
    expect(calls).toEqual(["first"]);
    release();
    await until(() => calls.includes("second"));
    await Promise.all([first.stop(), second.stop()]);
  });
});
