import { createFakeClock, createMemoryStorage, createRecordEngine, validateTriggers, type ActionRunContext } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { settingsOf } from "../settings.js";
import { createDefaultActionHandlers } from "./defaults.js";

function runContext(url: string): ActionRunContext {
  const [trigger] = validateTriggers([{ flock: "demo", trigger: "login", action: "send-json-webhook", url }], { allowPrivateTargets: true }).triggers;
  return {
    job: { deliveryId: "000000000000000000000009" } as ActionRunContext["job"],
    trigger: trigger!,
    dataEvent: {} as ActionRunContext["dataEvent"],
    flock: { identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" },
    secret: "test-secret-0123456789",
    now: new Date("2026-01-15T10:00:00Z"),
    payload: { trigger: "login", event: "login", flock: "demo", data: null, contact: null },
    body: "{}",
  };
}

describe("createDefaultActionHandlers", () => {
  it.each([
    { webhooks: {}, delivered: false },
    { webhooks: { allowPrivateTargets: true }, delivered: true },
    { webhooks: { allowInsecureUrls: true }, delivered: true },
  ])("passes the config's private-target flags to the webhook action: $webhooks → delivered $delivered", async ({ webhooks, delivered }) => {
    const storage = createMemoryStorage();
    const clock = createFakeClock();
    const config = parseConfig({ webhooks });
    let sent = 0;
    const fetch = (async () => ((sent += 1), new Response("ok"))) as typeof globalThis.fetch;
    const handlers = createDefaultActionHandlers({ storage, engine: createRecordEngine({ storage, clock }), settings: settingsOf(config), templates: [], clock, secret: "s".repeat(16), out: () => {} }, { fetch });
    const webhook = handlers.find((h) => h.action === "send-json-webhook")!;
    const outcome = await webhook.run(runContext("https://10.0.0.1/hook"));
    expect(outcome.ok).toBe(delivered);
    expect(sent).toBe(delivered ? 1 : 0);
  });
});
