/**
 * Issue 15: webhook targets in private ranges. A name that resolves to a private address is
 * an attempt failure (retried, the reason in `last_error`); a literal private address met
 * at delivery (the flag was removed after the job was queued) is dead at once.
 */
import { validateTriggers } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createActionRegistry } from "../actions/registry.js";
import { createWebhookActions } from "../actions/webhook.js";
import { createWebhookFetch } from "../actions/webhook-fetch.js";
import { attemptJob } from "./outbox-attempt.js";
import { claimOne, outboxSetup, SECRET, TEST_CLAIM } from "./outbox-test-helpers.js";

const RULE = "webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set";

describe("outbox: restricted webhook targets", () => {
  it("a target name resolving to a private address fails the attempt with a clear last_error and is retried", async () => {
    const { engine, storage } = await outboxSetup();
    await engine.create("demo", "person", { first_name: "Ada" });
    const job = await claimOne(storage, engine.context.clock);
    const fetch = createWebhookFetch({ allowPrivateTargets: false, resolve: (_h, _o, cb) => cb(null, [{ address: "10.20.30.40", family: 4 }]) });
    const deps = {
      engine,
      clock: engine.context.clock,
      secret: SECRET,
      registry: createActionRegistry(createWebhookActions({ fetch })),
      policy: { firstRetryDelayMs: 60_000, retryWindowHours: 168 },
      random: () => 0.5,
    };
    expect((await attemptJob(deps, job!, TEST_CLAIM)).result).toBe("retry");
    expect((await storage.listJobs({}))[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: null,
      lastError: `refused: hooks.example.org resolves to 10.20.30.40 (private); ${RULE}`,
      nextAttemptAt: "2026-01-15T10:00:45.000000",
    });
  });

  it("a literal private address at delivery is dead at once, nothing sent", async () => {
    const { engine, storage, triggers, runner, seen } = await outboxSetup();
    triggers.list = validateTriggers([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://172.16.0.9/hook" }], {
      allowPrivateTargets: true,
    }).triggers;
    await engine.create("demo", "person", { first_name: "Ada" });
    expect(await runner.runOnce()).toMatchObject({ dead: 1, done: 0 });
    expect(seen).toEqual([]);
    expect((await storage.listJobs({}))[0]).toMatchObject({
      status: "dead",
      attempts: 1,
      lastError: `url "https://172.16.0.9/hook" points at 172.16.0.9, a private address; ${RULE}`,
    });
  });
});
