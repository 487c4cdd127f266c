import { createFakeClock, createMemoryStorage, createRecordEngine, validateTriggers } from "@records-service/core";
import { describe, expect, it, vi } from "vitest";
import { createWebhookActions } from "../actions/webhook.js";
import { resolveSettings } from "../settings.js";
import type { WorkerContext } from "../runtime/workers.js";
import { createOutboxWorkerFactory } from "./outbox.js";
import { fakeFetch, HOOK, SECRET } from "./outbox-test-helpers.js";

async function context() {
  const storage = createMemoryStorage();
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
  const clock = createFakeClock();
  const triggers = validateTriggers([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: HOOK }]).triggers;
  const engine = createRecordEngine({ storage, clock, triggers: () => triggers });
  const out: string[] = [];
  const ctx: WorkerContext = { storage, engine, settings: resolveSettings(), templates: [], clock, secret: SECRET, out: (l) => out.push(l) };
  return { ctx, engine, storage, out };
}

describe("outbox worker: running", () => {
  it("delivers at once after a commit that queued jobs (no waiting for the poll), and stops cleanly", async () => {
    const { ctx, engine, storage } = await context();
    const { fetch, seen } = fakeFetch([{ status: 200 }]);
    const worker = createOutboxWorkerFactory({ pollMs: 3_600_000, handlers: () => createWebhookActions({ fetch }) })(ctx);
    await worker.start();
    await engine.create("demo", "person", { first_name: "Ada" });
    await vi.waitFor(async () => expect((await storage.listJobs({}))[0]?.status).toBe("done"), { timeout: 15_000, interval: 10 });
    expect(seen).toHaveLength(1);
    // Tagging the data event is the service's own work.
    expect((await storage.readChanges("demo", 0, 10)).changes.map((c) => [c.type, c.version, c.application])).toEqual([
      ["person", 1, null],
      ["data_event", 1, null],
      ["data_event", 2, "system:outbox"],
    ]);
    await worker.stop();
    await engine.create("demo", "person", { first_name: "Bob" });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(1);
    expect((await storage.listJobs({ status: "pending" })).length).toBe(1);
  });

  it("picks up jobs that were pending before it started (a restart), on start", async () => {
    const { ctx, engine, storage } = await context();
    await engine.create("demo", "person", { first_name: "Ada" });
    const { fetch, seen } = fakeFetch([{ status: 200 }]);
    const worker = createOutboxWorkerFactory({ pollMs: 3_600_000, handlers: () => createWebhookActions({ fetch }) })(ctx);
    await worker.start();
    await vi.waitFor(async () => expect((await storage.listJobs({}))[0]?.status).toBe("done"), { timeout: 15_000, interval: 10 });
    expect(seen).toHaveLength(1);
    await worker.stop();
  });

  it("stop waits for the attempt in flight, then aborts it after the grace period, leaving the job pending", async () => {
    const { ctx, engine, storage } = await context();
    let started = false;
    const hanging: typeof fetch = (_u, init) =>
      new Promise((_, reject) => {
        started = true;
        init?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
      });
    const worker = createOutboxWorkerFactory({ pollMs: 3_600_000, stopGraceMs: 20, handlers: () => createWebhookActions({ fetch: hanging }) })(ctx);
    await worker.start();
    await engine.create("demo", "person", {});
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 15_000, interval: 5 });
    await worker.stop();
    expect((await storage.listJobs({}))[0]).toMatchObject({ status: "pending", attempts: 0 });
  });
});
