import { createFakeClock, createMemoryStorage, createRecordEngine } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import { backupWorker } from "../workers/backup.js";
import { startWorkers, type WorkerContext, type WorkerFactory } from "./workers.js";

function context(out: string[]): WorkerContext {
  const storage = createMemoryStorage();
  const clock = createFakeClock();
  return { storage, engine: createRecordEngine({ storage, clock }), settings: resolveSettings(), templates: [], clock, secret: "s", out: (l) => out.push(l) };
}

/** A worker that records its start and stop in `events`. */
const recorder =
  (name: string, events: string[], opts: { failStart?: boolean; failStop?: boolean } = {}): WorkerFactory =>
  () => ({
    name,
    start() {
      if (opts.failStart) throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
    },
    async stop() {
      events.push(`stop ${name}`);
      if (opts.failStop) throw new Error("stuck");
    },
  });

describe("startWorkers", () => {
  it("starts in order and stops newest first", async () => {
    const events: string[] = [];
    const group = await startWorkers([recorder("outbox", events), recorder("scheduler", events)], context([]));
    expect(group.names).toEqual(["outbox", "scheduler"]);
    await group.stop();
    expect(events).toEqual(["start outbox", "start scheduler", "stop scheduler", "stop outbox"]);
    expect(group.names).toEqual([]);
  });

  it("a worker whose start answers false (nothing to do here) is neither listed nor stopped", async () => {
    const events: string[] = [];
    const idle: WorkerFactory = () => ({ name: "backup", start: () => false, stop: async () => void events.push("stop backup") });
    const group = await startWorkers([recorder("outbox", events), idle], context([]));
    expect(group.names).toEqual(["outbox"]);
    await group.stop();
    expect(events).toEqual(["start outbox", "stop outbox"]);
  });

  it("with no backup section the backup worker is not listed among the running", async () => {
    const group = await startWorkers([backupWorker], context([]));
    expect(group.names).toEqual([]);
    await group.stop();
  });

  it("stops the started ones when a later one fails to start", async () => {
    const events: string[] = [];
    await expect(startWorkers([recorder("a", events), recorder("b", events, { failStart: true })], context([]))).rejects.toThrow(
      "b cannot start",
    );
    expect(events).toEqual(["start a", "stop a"]);
  });

  it("reports a failing stop and still stops the others", async () => {
    const events: string[] = [];
    const out: string[] = [];
    const group = await startWorkers([recorder("a", events), recorder("b", events, { failStop: true })], context(out));
    await group.stop();
    expect(events).toEqual(["start a", "start b", "stop b", "stop a"]);
    expect(out).toEqual(["worker b failed to stop: stuck"]);
  });

  it("runs with no workers", async () => {
    const group = await startWorkers([], context([]));
    await expect(group.stop()).resolves.toBeUndefined();
  });
});
