import {
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  validateTriggers,
  type StoredRecord,
} from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createOutboxRunner } from "../../workers/outbox.js";
import { createActionRegistry } from "../registry.js";
import { createEmailActions } from "./actions.js";
import { compileTemplates } from "./templates.js";
import type { MailTransport, OutgoingMail } from "./transport.js";

/** The email actions run by the real outbox runner: the journal commits with the job and the tag. */
async function setup(opts: { transport?: MailTransport; action?: string } = {}) {
  const storage = createMemoryStorage();
  const clock = createFakeClock("2026-03-01T09:00:00.000Z");
  const { triggers } = validateTriggers([
    { flock: "demo", trigger: "contact_created", action: opts.action ?? "send-templated-email", template: "welcome" },
  ]);
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: () => triggers });
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
  const templates = compileTemplates([{ flock: "demo", name: "welcome", subject: "Hi <%= it.data.first_name %>", body: "<p><%= it.data.last_name %></p>" }]);
  const handlers = createEmailActions({ templates, records: engine.read, ids: engine.context.ids, ...(opts.transport ? { transport: opts.transport } : {}) });
  const runner = createOutboxRunner({ engine, clock, secret: "s".repeat(16), registry: createActionRegistry(handlers), policy: {}, random: () => 0.5 });
  const list = async (type: string): Promise<StoredRecord[]> =>
    (await storage.listRecords("demo", type, { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 100 })).records;
  return { storage, engine, runner, list };
}

describe("email actions through the outbox", () => {
  it("sends, journals and tags the event in one outcome; a second run sends nothing", async () => {
    const sent: OutgoingMail[] = [];
    const transport: MailTransport = { send: async (m) => (sent.push(m), { messageId: "<m1@test>" }), close() {} };
    const { engine, runner, list, storage } = await setup({ transport });
    await engine.create("demo", "person", { first_name: "Ada", last_name: "<Lovelace>", email: ["ada@example.org;home"] });
    expect(await runner.runOnce()).toMatchObject({ done: 1, retry: 0, dead: 0 });
    expect(sent).toEqual([{ to: "ada@example.org", subject: "Hi Ada", html: "<p>&lt;Lovelace&gt;</p>" }]);
    const [journal] = await list("journal");
    expect(journal?.data).toMatchObject({ kind: "email", status: "sent", to: "ada@example.org", template: "welcome", trigger: "contact_created" });
    const [event] = await list("data_event");
    expect(event?.data.tags).toEqual(["send-templated-email"]);
    expect(await runner.runOnce()).toMatchObject({ done: 0 });
    expect(sent).toHaveLength(1);
    expect((await storage.listJobs({ flock: "demo" })).map((j) => j.status)).toEqual(["done"]);
  });

  it("an SMTP outage is retried with the job's error; nothing is journalled yet", async () => {
    const transport: MailTransport = {
      send: async () => {
        throw new Error("smtp: connect ECONNREFUSED 127.0.0.1:2525");
      },
      close() {},
    };
    const { engine, runner, list, storage } = await setup({ transport });
    await engine.create("demo", "person", { first_name: "Ada", email: ["ada@example.org"] });
    expect(await runner.runOnce()).toMatchObject({ done: 0, retry: 1 });
    expect(await list("journal")).toEqual([]);
    expect((await storage.listJobs({ flock: "demo" }))[0]).toMatchObject({ status: "pending", attempts: 1, lastError: "smtp: connect ECONNREFUSED 127.0.0.1:2525" });
  });

  it("a draft action journals a draft and sends nothing", async () => {
    const { engine, runner, list } = await setup({ action: "draft-templated-email" });
    await engine.create("demo", "person", { first_name: "Ada", email: ["ada@example.org"] });
    expect(await runner.runOnce()).toMatchObject({ done: 1 });
    expect((await list("journal")).map((j) => [j.data.status, j.data.to])).toEqual([["draft", "ada@example.org"]]);
  });

  it("a permanent failure (no recipient) journals a failed email with the dead job", async () => {
    const sent: OutgoingMail[] = [];
    const transport: MailTransport = { send: async (m) => (sent.push(m), { messageId: "<m@test>" }), close() {} };
    const { engine, runner, list, storage } = await setup({ transport });
    await engine.create("demo", "person", { first_name: "Ada" });
    expect(await runner.runOnce()).toMatchObject({ done: 0, retry: 0, dead: 1 });
    expect(sent).toEqual([]);
    expect((await list("journal")).map((j) => [j.data.kind, j.data.status, j.data.trigger])).toEqual([["email", "failed", "contact_created"]]);
    expect((await storage.listJobs({ flock: "demo" }))[0]).toMatchObject({ status: "dead", attempts: 1 });
  });
});
