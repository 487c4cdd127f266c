import {
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  DATA_EVENT_TYPE,
  updateWrite,
  validateTriggers,
  type StoredRecord,
} from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createEmailActions } from "../actions/email/actions.js";
import { compileTemplates } from "../actions/email/templates.js";
import type { MailTransport, OutgoingMail } from "../actions/email/transport.js";
import { createActionRegistry } from "../actions/registry.js";
import { verifyRecordsSignature, verifyStandardSignature } from "../actions/signature.js";
import { createWebhookActions } from "../actions/webhook.js";
import { webhookKey } from "../config/keys.js";
import { resumeHeldJobs } from "../runtime/resume-held.js";
import { attemptJob, heldReason } from "./outbox-attempt.js";
import { createOutboxRunner } from "./outbox.js";
import { claimOne, fakeFetch, HOOK, outboxSetup, SECRET, TEST_CLAIM } from "./outbox-test-helpers.js";

const SUMMARY = { done: 0, retry: 0, dead: 0, held: 0, left: 0, errors: 0, lost: 0 };
/** What flock demo's receivers hold (`records-service webhook-secret demo`). */
const KEY = webhookKey(SECRET, "demo");

async function onlyEvent(storage: Awaited<ReturnType<typeof outboxSetup>>["storage"]): Promise<StoredRecord> {
  const page = await storage.listRecords("demo", DATA_EVENT_TYPE, { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 10 });
  expect(page.total).toBe(1);
  return page.records[0]!;
}

describe("outbox worker: delivery", () => {
  it("delivers a created contact once, signed, and tags the data event", async () => {
    const { engine, storage, runner, seen } = await outboxSetup({ script: [{ status: 201 }] });
    const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.url).toBe(HOOK);
    const body = JSON.parse(req.body);
    expect(body).toEqual({
      trigger: "contact_created",
      event: "contact",
      flock: "demo",
      data: await engine.toSingle(ada),
      contact: ada.data,
    });
    const [job] = await storage.listJobs({});
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-records-delivery"]).toBe(job!.deliveryId);
    expect(req.headers["webhook-id"]).toBe(job!.deliveryId);
    expect(req.headers["webhook-timestamp"]).toBe(String(Date.parse("2026-01-15T10:00:00Z") / 1000));
    expect(verifyRecordsSignature(KEY, req.body, req.headers["x-records-signature"])).toBe(true);
    expect(verifyStandardSignature(KEY, job!.deliveryId, req.headers["webhook-timestamp"]!, req.body, req.headers["webhook-signature"])).toBe(true);
    // Signed with demo's key only: neither another flock's key nor the secret itself verifies it.
    expect(verifyRecordsSignature(webhookKey(SECRET, "club"), req.body, req.headers["x-records-signature"])).toBe(false);
    expect(verifyRecordsSignature(Buffer.from(SECRET), req.body, req.headers["x-records-signature"])).toBe(false);
    expect(job).toMatchObject({ status: "done", attempts: 1, lastStatus: 201, lastError: null, firstAttemptAt: "2026-01-15T10:00:00.000000", body: null });
    expect((await onlyEvent(storage)).data.tags).toEqual(["send-json-webhook"]);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    expect(seen).toHaveLength(1);
  });

  it("a receiver that fails twice gets the same delivery, same bytes, a third time, then no more", async () => {
    const { engine, storage, runner, seen, clock, out } = await outboxSetup({ script: [{ status: 500 }, { status: 404 }, { status: 200 }] });
    const ada = await engine.create("demo", "person", { first_name: "Ada" });
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, retry: 1 });
    let [job] = await storage.listJobs({});
    // Equal jitter with random 0.5: three quarters of the 60 s first delay.
    expect(job).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: "2026-01-15T10:00:45.000000", lastStatus: 500, lastError: "HTTP 500" });
    expect(out.at(-1)).toContain("next attempt at 2026-01-15T10:00:45.000000");
    await engine.update("demo", "person", ada.id, { first_name: "Augusta" });
    clock.advance(44_999);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    clock.advance(1);
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, retry: 1 });
    [job] = await storage.listJobs({});
    expect(job).toMatchObject({ attempts: 2, nextAttemptAt: "2026-01-15T10:02:15.000000", lastStatus: 404, firstAttemptAt: "2026-01-15T10:00:00.000000" });
    clock.advance(90_000);
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    clock.advance(3_600_000);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.headers["x-records-delivery"]))).toEqual(new Set([job!.deliveryId]));
    expect(new Set(seen.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(seen[2]!.body).contact.first_name).toBe("Ada");
    expect(seen.map((r) => r.headers["webhook-timestamp"])).toEqual(["1768471200", "1768471245", "1768471335"]);
    for (const r of seen) expect(verifyStandardSignature(KEY, job!.deliveryId, r.headers["webhook-timestamp"]!, r.body, r.headers["webhook-signature"])).toBe(true);
    [job] = await storage.listJobs({});
    expect(job).toMatchObject({ status: "done", attempts: 3, lastStatus: 200, lastError: null, body: null });
  });

  it("honours a Retry-After longer than the backoff", async () => {
    const { engine, storage, runner } = await outboxSetup({ script: [{ status: 429, headers: { "Retry-After": "600" }, body: "slow   down" }] });
    await engine.create("demo", "person", {});
    await runner.runOnce();
    const [job] = await storage.listJobs({});
    expect(job).toMatchObject({ status: "pending", nextAttemptAt: "2026-01-15T10:10:00.000000", lastStatus: 429, lastError: "HTTP 429: slow down" });
  });

  it("gives up (dead) once the retry window is over, with a last attempt at its end", async () => {
    const { engine, storage, runner, seen, clock, out } = await outboxSetup({ script: [{ error: new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }) }], retryWindowHours: 0.01 });
    await engine.create("demo", "person", {});
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, retry: 1 });
    let [job] = await storage.listJobs({});
    expect(job).toMatchObject({ nextAttemptAt: "2026-01-15T10:00:36.000000", lastError: "fetch failed (ECONNREFUSED)", lastStatus: null });
    clock.advance(36_000);
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, dead: 1 });
    [job] = await storage.listJobs({});
    expect(job).toMatchObject({ status: "dead", attempts: 2 });
    expect(out.at(-1)).toContain("gave up");
    clock.advance(86_400_000);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    expect(seen).toHaveLength(2);
    expect((await onlyEvent(storage)).data.tags).toEqual([]);
  });

  it("a job whose data event already has the action's tag finishes without running", async () => {
    const { engine, storage, runner, seen } = await outboxSetup();
    await engine.create("demo", "person", {});
    const event = await onlyEvent(storage);
    const tagged = { ...event, data: { ...event.data, tags: ["send-json-webhook"] }, version: 2 };
    await storage.apply({ records: [updateWrite(event, tagged)] });
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(seen).toEqual([]);
    expect((await storage.listJobs({}))[0]).toMatchObject({ status: "done", attempts: 0 });
  });

  it("removing the tag delivers again, with a new delivery id", async () => {
    const { engine, storage, runner, seen } = await outboxSetup();
    await engine.create("demo", "person", {});
    await runner.runOnce();
    const event = await onlyEvent(storage);
    await engine.update("demo", DATA_EVENT_TYPE, event.id, { tags: [] });
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers["x-records-delivery"]).not.toBe(seen[1]!.headers["x-records-delivery"]);
    expect((await onlyEvent(storage)).data.tags).toEqual(["send-json-webhook"]);
  });

  it("sends the related person as contact, and the context record in the single-record shape", async () => {
    const { engine, runner, seen } = await outboxSetup({ triggers: [{ flock: "demo", trigger: "reservation_created", action: "send-webhook", url: HOOK }] });
    const buyer = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    const res = await engine.create("demo", "reservation", { buyer_ref: `/demo/person/${buyer.id}/`, fee: 10 });
    await runner.runOnce();
    expect(seen).toHaveLength(1);
    const body = JSON.parse(seen[0]!.body);
    expect(body).toMatchObject({ trigger: "reservation_created", event: "reservation", flock: "demo", contact: buyer.data });
    expect(body.data).toEqual(await engine.toSingle(res));
    expect(body.data.data.buyer_ref).toEqual({ display_value: "Ada Lovelace", ref: `/demo/person/${buyer.id}/` });
  });

  it("never sends another flock's record as contact, whatever a field of this flock's record names", async () => {
    const { engine, storage, runner, seen } = await outboxSetup({ triggers: [{ flock: "demo", trigger: "reservation_created", action: "send-webhook", url: HOOK }] });
    await storage.createFlock({ identifier: "other", name: "Other", created: "2026-01-15T10:00:00.000000" });
    const stranger = await engine.create("other", "person", { first_name: "Grace", last_name: "Hopper" });
    const own = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    // Positive control: this flock's buyer is sent.
    await engine.create("demo", "reservation", { buyer_ref: `/demo/person/${own.id}/`, fee: 10 });
    // The same field naming a record of flock "other".
    const res = await engine.create("demo", "reservation", { buyer_ref: `/other/person/${stranger.id}/`, fee: 10 });
    expect(res.data.buyer_ref).toBe(`/other/person/${stranger.id}/`);
    await runner.runOnce();
    const bodies = seen.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.contact?.first_name ?? null).sort()).toEqual(["Ada", null]);
    expect(JSON.stringify(bodies)).not.toContain("Grace");
  });

  it("an event about no record sends data and contact null", async () => {
    const { engine, runner, seen } = await outboxSetup({ triggers: [{ flock: "demo", trigger: "login", action: "send-json-webhook", url: HOOK }] });
    await engine.emit("demo", [{ name: "login", contextUri: null }]);
    await runner.runOnce();
    expect(JSON.parse(seen[0]!.body)).toEqual({ trigger: "login", event: "login", flock: "demo", data: null, contact: null });
  });
});

describe("outbox worker: jobs that cannot run", () => {
  it("holds a job whose trigger is inactive or missing, and delivers it once when the trigger is back", async () => {
    const { engine, storage, runner, seen, triggers, clock, out } = await outboxSetup();
    const configured = triggers.list;
    await engine.create("demo", "person", {});
    triggers.list = configured.map((t) => ({ ...t, active: false }));
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, held: 1 });
    expect(seen).toEqual([]);
    const [held] = await storage.listJobs({});
    expect(held).toMatchObject({ status: "held", attempts: 0, lastError: heldReason(held!) });
    expect(out.join("\n")).toContain("held: trigger contact_created with action send-json-webhook is not configured or not active");
    // Held jobs are not claimed again, whatever the time.
    clock.advance(7 * 86_400_000);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    triggers.list = [];
    expect(await resumeHeldJobs(storage, clock, triggers.list)).toBe(0);
    triggers.list = configured;
    expect(await resumeHeldJobs(storage, clock, triggers.list)).toBe(1);
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(await resumeHeldJobs(storage, clock, triggers.list)).toBe(0);
    expect(await runner.runOnce()).toEqual(SUMMARY);
    expect(seen).toHaveLength(1);
    expect((await storage.listJobs({}))[0]).toMatchObject({ status: "done", attempts: 1, deliveryId: held!.deliveryId });
  });

  it("gives up at once on a URL the action refuses (http without allowInsecureUrls)", async () => {
    const { engine, storage, runner, seen, triggers } = await outboxSetup();
    await engine.create("demo", "person", {});
    triggers.list = triggers.list.map((t) => ({ ...t, url: "http://hooks.example.org/x" }));
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, dead: 1 });
    expect(seen).toEqual([]);
    expect((await storage.listJobs({}))[0]).toMatchObject({ status: "dead", attempts: 1, lastError: expect.stringContaining("https://") });
  });

  it("gives up on an action without a handler, and on a data event that is gone", async () => {
    const { engine, storage, runner } = await outboxSetup({
      triggers: [
        { flock: "demo", trigger: "contact_created", action: "send-templated-email", template: "welcome" },
        { flock: "demo", trigger: "reservation_created", action: "send-json-webhook", url: HOOK },
      ],
    });
    await engine.create("demo", "person", {});
    const r = await engine.create("demo", "reservation", {});
    const events = await storage.listRecords("demo", DATA_EVENT_TYPE, { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 10 });
    const resEvent = events.records.find((e) => e.data.context_ref === `/demo/reservation/${r.id}/`)!;
    await engine.delete("demo", DATA_EVENT_TYPE, resEvent.id);
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, dead: 2 });
    const errors = (await storage.listJobs({})).map((j) => j.lastError);
    expect(errors).toEqual(["the data event no longer exists", "this server has no handler for action send-templated-email"]);
  });

  it("an attempt cut short by shutdown leaves its job pending and untouched", async () => {
    const { engine, storage, runner, abort } = await outboxSetup();
    await engine.create("demo", "person", {});
    const before = await claimOne(storage, engine.context.clock);
    // Like fetch: rejects with an AbortError when its signal is (or becomes) aborted, never answers otherwise.
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_, reject) => {
        const fail = () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
        if (init?.signal?.aborted) fail();
        else init?.signal?.addEventListener("abort", fail);
      });
    const deps = {
      engine,
      clock: engine.context.clock,
      secret: SECRET,
      registry: createActionRegistry(createWebhookActions({ fetch: hanging })),
      policy: {},
      random: () => 0.5,
      signal: abort.signal,
    };
    const attempt = attemptJob(deps, before!, TEST_CLAIM);
    abort.abort();
    expect((await attempt).result).toBe("left");
    // Untouched but for the body, kept before the attempt for the retry, and released.
    expect(before!.body).toBeNull();
    expect(await storage.listJobs({})).toEqual([{ ...before, claimedUntil: null, body: expect.stringContaining('"trigger":"contact_created"') }]);
    // Once aborted, a run claims nothing more.
    expect(await runner.runOnce()).toEqual(SUMMARY);
  });

  it("a retry after a first attempt cut short sends the first attempt's bytes, though the record changed", async () => {
    const { engine, storage, seen, runner } = await outboxSetup();
    const ada = await engine.create("demo", "person", { first_name: "Ada" });
    const job = await claimOne(storage, engine.context.clock);
    // As if the process were killed during the first attempt: the request went out, no outcome was stored.
    const interrupted = new AbortController();
    const sent: string[] = [];
    const dying: typeof fetch = async (_url, init) => {
      sent.push(String(init?.body));
      interrupted.abort();
      throw Object.assign(new Error("aborted"), { name: "AbortError" });
    };
    const deps = {
      engine,
      clock: engine.context.clock,
      secret: SECRET,
      registry: createActionRegistry(createWebhookActions({ fetch: dying })),
      policy: {},
      random: () => 0.5,
      signal: interrupted.signal,
    };
    expect((await attemptJob(deps, job!, TEST_CLAIM)).result).toBe("left");
    await engine.update("demo", "person", ada.id, { first_name: "Grace" });
    expect(await runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(seen.map((r) => r.body)).toEqual(sent);
    expect(JSON.parse(seen[0]!.body).contact.first_name).toBe("Ada");
    expect(seen[0]!.headers["x-records-delivery"]).toBe(job!.deliveryId);
    // Done: the kept copy is gone.
    expect((await storage.listJobs({}))[0]).toMatchObject({ status: "done", body: null });
  });
});

describe("outbox worker: the contact of a payment", () => {
  it("a membership_payment_received webhook carries the member as contact; other payments their record's person", async () => {
    const { engine, runner, seen } = await outboxSetup({
      triggers: [
        { flock: "demo", trigger: "membership_payment_received", action: "send-json-webhook", url: HOOK },
        { flock: "demo", trigger: "ticket_payment_received", action: "send-json-webhook", url: HOOK },
        { flock: "demo", trigger: "payment_received", action: "send-json-webhook", url: HOOK },
      ],
    });
    const member = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    const buyer = await engine.create("demo", "person", { first_name: "Grace", last_name: "Hopper" });
    const m = await engine.create("demo", "membership", { member: `/demo/person/${member.id}/`, end_date: "2027-01-01" });
    const t = await engine.create("demo", "ticket", { person_ref: `/demo/person/${buyer.id}/` });
    const pay = await engine.create("demo", "payment", { amount: 10, membership_ref: `/demo/membership/${m.id}/` });
    await engine.create("demo", "payment", { amount: 5, ticket_ref: `/demo/ticket/${t.id}/` });
    await engine.create("demo", "payment", { amount: 1 }); // about no one
    await engine.create("demo", "payment", { amount: 2, membership_ref: "/demo/membership/000000000000000000000fff/" }); // gone
    await runner.runOnce();
    const bodies = seen.map((r) => JSON.parse(r.body));
    const contacts = bodies.map((b) => [b.trigger, b.contact?.first_name ?? null]);
    expect(contacts.sort()).toEqual(
      [
        ["membership_payment_received", "Ada"],
        ["membership_payment_received", null],
        ["payment_received", null],
        ["ticket_payment_received", "Grace"],
      ].sort(),
    );
    const first = bodies.find((b) => b.data?.uri === `/demo/payment/${pay.id}/`);
    expect(first.contact).toEqual(member.data);
  });

  it("an email trigger on a payment reaches the member's primary email", async () => {
    const storage = createMemoryStorage();
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
    const clock = createFakeClock("2026-01-15T10:00:00.000Z");
    const { triggers } = validateTriggers([{ flock: "demo", trigger: "membership_payment_received", action: "send-templated-email", template: "thanks" }]);
    const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: () => triggers });
    const templates = compileTemplates([{ flock: "demo", name: "thanks", subject: "Thanks <%= it.contact.first_name %>", body: "<p>paid</p>" }]);
    const mails: OutgoingMail[] = [];
    const transport: MailTransport = { send: async (mail) => (mails.push(mail), { messageId: "<m@test>" }), close() {} };
    const registry = createActionRegistry(createEmailActions({ templates, records: engine.read, ids: engine.context.ids, transport }));
    const runner = createOutboxRunner({ engine, clock, secret: SECRET, registry, policy: {}, random: () => 0.5 });
    const ada = await engine.create("demo", "person", { first_name: "Ada", email: ["ada@home.example.org;home", "ada@work.example.org;work;__primary"] });
    const m = await engine.create("demo", "membership", { member: `/demo/person/${ada.id}/` });
    await engine.create("demo", "payment", { amount: 10, membership_ref: `/demo/membership/${m.id}/` });
    expect(await runner.runOnce()).toMatchObject({ done: 1, dead: 0 });
    expect(mails).toEqual([{ to: "ada@work.example.org", subject: "Thanks Ada", html: "<p>paid</p>" }]);
  });
});

describe("outbox worker: several processes on one database", () => {
  /** A second runner over the same storage and clock: another process's worker. */
  function otherProcess(setup: Awaited<ReturnType<typeof outboxSetup>>, fetch: typeof globalThis.fetch, leaseMs = 60_000) {
    return createOutboxRunner({
      engine: setup.engine,
      clock: setup.clock,
      secret: SECRET,
      registry: createActionRegistry(createWebhookActions({ fetch })),
      policy: { firstRetryDelayMs: 60_000, retryWindowHours: 168 },
      random: () => 0.5,
      leaseMs,
    });
  }

  it("two runners at once attempt each job once", async () => {
    const setup = await outboxSetup();
    for (let i = 0; i < 30; i++) await setup.engine.create("demo", "person", { first_name: `P${i}` });
    const second = fakeFetch([{ status: 200 }]);
    const [a, b] = await Promise.all([setup.runner.runOnce(), otherProcess(setup, second.fetch).runOnce()]);
    expect(a.done + b.done).toBe(30);
    const ids = [...setup.seen, ...second.seen].map((r) => r.headers["x-records-delivery"]);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it("a job whose claim lapsed mid-attempt is retried by another with the same delivery id; the late outcome is dropped", async () => {
    const setup = await outboxSetup();
    await setup.engine.create("demo", "person", { first_name: "Ada" });
    let answer: (r: Response) => void = () => {};
    const held: string[] = [];
    const slow = (async (_u: unknown, init?: RequestInit) => {
      held.push(new Headers(init?.headers).get("x-records-delivery")!);
      return new Promise<Response>((resolve) => (answer = resolve));
    }) as typeof globalThis.fetch;
    const stalled = otherProcess(setup, slow, 60_000).runOnce();
    while (held.length === 0) await new Promise((r) => setTimeout(r, 1));
    // Held: nobody else gets it while the claim lives.
    expect(await setup.runner.runOnce()).toEqual(SUMMARY);
    setup.clock.advance(60_000);
    expect(await setup.runner.runOnce()).toEqual({ ...SUMMARY, done: 1 });
    expect(setup.seen.map((r) => r.headers["x-records-delivery"])).toEqual(held);
    answer(new Response("", { status: 200 }));
    expect(await stalled).toEqual({ ...SUMMARY, lost: 1 });
    const [job] = await setup.storage.listJobs({});
    expect(job).toMatchObject({ status: "done", attempts: 1, claimedUntil: null });
    expect((await onlyEvent(setup.storage)).data.tags).toEqual(["send-json-webhook"]);
  });
});
