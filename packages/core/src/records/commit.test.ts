import { describe, expect, it } from "vitest";
import { createSequentialIds } from "../ids.js";
import { createMemoryStorage } from "../memory/memory.js";
import type { OutboxJob } from "../model/outbox.js";
import { createFakeClock } from "../time.js";
import { validateTriggers, type TriggerConfig } from "../triggers/config.js";
import { commit } from "./commit.js";
import { createRecordEngine } from "./engine.js";
import { rejection, START, START_TS } from "./test-helpers.js";

const HOOK = "https://example.org/hook";

function triggers(entries: Record<string, unknown>[]): TriggerConfig[] {
  return validateTriggers(entries).triggers;
}

async function setup(list: TriggerConfig[] = []) {
  const storage = createMemoryStorage();
  await storage.createFlock({ identifier: "demo", name: "Demo", created: START_TS });
  await storage.createFlock({ identifier: "other", name: "Other", created: START_TS });
  const clock = createFakeClock(START);
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: (flock) => list.filter((t) => t.flock === flock) });
  const queued: OutboxJob[][] = [];
  engine.onJobsQueued((jobs) => queued.push([...jobs]));
  const events = async (flock = "demo") => (await storage.listRecords(flock, "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 100 })).records;
  return { storage, clock, engine, queued, events };
}

const WEBHOOK = { flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: HOOK };

describe("commit: events in the same transaction as the change", () => {
  it("a created person records contact_created, with one job per active trigger action", async () => {
    const { engine, storage, events, queued } = await setup(
      triggers([
        WEBHOOK,
        { flock: "demo", trigger: "contact_created", action: "send-webhook", url: HOOK, active: false },
        { flock: "other", trigger: "contact_created", action: "send-json-webhook", url: HOOK },
        { flock: "demo", trigger: "login", action: "send-json-webhook", url: HOOK },
      ]),
    );
    const ada = await engine.create("demo", "person", { first_name: "Ada" });
    const [event, ...more] = await events();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: "data_event",
      flock: "demo",
      version: 1,
      created: START_TS,
      data: {
        name: "contact_created",
        event: "contact",
        variation: "created",
        fire_at: START_TS,
        context_ref: `/demo/person/${ada.id}/`,
        tags: [],
        expires_at: "2028-01-15T10:00:00.000000",
      },
    });
    const jobs = await storage.listJobs({});
    expect(jobs).toEqual([
      {
        id: jobs[0]!.id,
        flock: "demo",
        dataEventId: event!.id,
        trigger: "contact_created",
        action: "send-json-webhook",
        deliveryId: jobs[0]!.id,
        status: "pending",
        attempts: 0,
        nextAttemptAt: START_TS,
        firstAttemptAt: null,
        lastError: null,
        lastStatus: null,
        body: null,
        created: START_TS,
        claimedUntil: null,
      },
    ]);
    expect(queued).toEqual([jobs]);
    expect(await events("other")).toEqual([]);
  });

  it("without triggers, events are recorded and no job is queued", async () => {
    const { engine, storage, events, queued } = await setup();
    await engine.create("demo", "organisation", { name: "ACME" });
    expect((await events()).map((e) => e.data.name)).toEqual(["contact_created"]);
    expect(await storage.listJobs({})).toEqual([]);
    expect(queued).toEqual([]);
  });

  it("a change that does not commit records no event and queues nothing", async () => {
    const { engine, storage, events, queued } = await setup(triggers([{ ...WEBHOOK, trigger: "reservation_cancelled" }]));
    const r = await engine.create("demo", "reservation", { status: null });
    const stale = { ...r, data: { status: "cancelled" }, version: 2 };
    const err = await rejection(commit(engine.context, { records: [{ kind: "update", record: stale, expectedVersion: 5, before: r, changed: ["status"] }] }));
    expect(err.code).toBe("conflict");
    expect((await events()).map((e) => e.data.name)).toEqual(["reservation_created"]);
    expect(await storage.listJobs({})).toEqual([]);
    expect(queued).toEqual([]);
  });

  it("updates emit change events: a cancelled reservation, a cancelled membership", async () => {
    const { engine, events } = await setup();
    const r = await engine.create("demo", "reservation", {});
    await engine.update("demo", "reservation", r.id, { status: "cancelled" });
    await engine.update("demo", "reservation", r.id, { status: "cancelled", name: "again" });
    const m = await engine.create("demo", "membership", { membership_record_status: "active" });
    await engine.update("demo", "membership", m.id, { membership_record_status: "cancelled" });
    expect((await events()).map((e) => [e.data.name, e.data.context_ref])).toEqual([
      ["reservation_created", `/demo/reservation/${r.id}/`],
      ["reservation_cancelled", `/demo/reservation/${r.id}/`],
      ["cancelling_membership", `/demo/membership/${m.id}/`],
    ]);
  });

  it("a payment with several references emits one event, by precedence", async () => {
    const { engine, events } = await setup();
    await engine.create("demo", "payment", { amount: 10, invoice_ref: "/demo/invoice/0123456789abcdef01234567/", donation_ref: "/demo/donation/0123456789abcdef01234567/" });
    expect((await events()).map((e) => e.data.name)).toEqual(["donation_payment_received"]);
  });

  it("delete, restore, touch and journal or core_event writes emit nothing", async () => {
    const { engine, events } = await setup();
    const p = await engine.create("demo", "person", {});
    await engine.delete("demo", "person", p.id);
    await engine.restore("demo", "person", p.id);
    await engine.touch("demo", "person", p.id);
    await engine.create("demo", "journal", { kind: "email" });
    await engine.create("demo", "core_event", { tag: "queued" });
    expect((await events()).map((e) => e.data.name)).toEqual(["contact_created"]);
  });

  it("a data event created or edited through the engine emits no further event", async () => {
    const { engine, events } = await setup(triggers([WEBHOOK]));
    const own = await engine.create("demo", "data_event", { name: "contact_created", tags: [] });
    await engine.update("demo", "data_event", own.id, { comment: "x" });
    expect((await events()).map((e) => e.id)).toEqual([own.id]);
  });
});

describe("commit: removing an action's tag makes it fire again", () => {
  it("queues a new job (new delivery id) for each removed tag of an active trigger action", async () => {
    const { engine, storage, queued } = await setup(
      triggers([WEBHOOK, { flock: "demo", trigger: "contact_created", action: "send-webhook", url: HOOK }]),
    );
    await engine.create("demo", "person", {});
    const [e1, e2] = await storage.listJobs({});
    const eventId = e1!.dataEventId;
    await engine.update("demo", "data_event", eventId, { tags: ["send-json-webhook", "send-webhook", "mine"] });
    expect(await storage.listJobs({})).toHaveLength(2);
    await engine.update("demo", "data_event", eventId, { tags: ["send-webhook"] });
    const jobs = await storage.listJobs({});
    expect(jobs).toHaveLength(3);
    expect(jobs[0]).toMatchObject({ dataEventId: eventId, action: "send-json-webhook", status: "pending", attempts: 0 });
    expect([e1!.deliveryId, e2!.deliveryId]).not.toContain(jobs[0]!.deliveryId);
    expect(queued.at(-1)).toEqual([jobs[0]]);
  });

  it("removing a tag no active trigger adds queues nothing", async () => {
    const { engine, storage } = await setup(triggers([{ ...WEBHOOK, active: false }]));
    await engine.create("demo", "person", {});
    const [event] = (await storage.listRecords("demo", "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 5 })).records;
    await engine.update("demo", "data_event", event!.id, { tags: ["send-json-webhook"] });
    await engine.update("demo", "data_event", event!.id, { tags: [] });
    expect(await storage.listJobs({})).toEqual([]);
  });
});

describe("engine.emit", () => {
  it("records events not tied to a write, with their jobs", async () => {
    const { engine, storage, clock, queued } = await setup(triggers([{ ...WEBHOOK, trigger: "login" }]));
    clock.advance(1000);
    const [login] = await engine.emit("demo", [{ name: "login", contextUri: null }]);
    expect(login!.data).toMatchObject({ name: "login", event: "login", variation: null, fire_at: "2026-01-15T10:00:01.000000", context_ref: null, tags: [] });
    expect(await storage.listJobs({})).toMatchObject([{ dataEventId: login!.id, trigger: "login" }]);
    expect(queued).toHaveLength(1);
  });

  it("takes a fire time, a custom expiry and a dedupe key; a stored key is skipped", async () => {
    const { engine } = await setup();
    const m = "/demo/membership/0123456789abcdef01234567/";
    const input = { name: "expiring_2wk", contextUri: m, fireAt: "2026-03-01", expiresAt: "2026-04-01T00:00:00.000000", dedupeKey: "k1" };
    const [first] = await engine.emit("demo", [input, { ...input }]);
    expect(first!.data).toMatchObject({ name: "expiring_2wk", fire_at: "2026-03-01T00:00:00.000000", expires_at: "2026-04-01T00:00:00.000000", dedupe_key: "k1" });
    expect(await engine.emit("demo", [input])).toEqual([]);
    expect(await engine.emit("other", [input])).toHaveLength(1);
  });

  it("a key stored by another process between the lookup and the write is skipped, not doubled", async () => {
    const { engine, storage, events } = await setup();
    const other = createRecordEngine({ storage, clock: createFakeClock(START), ids: createSequentialIds("9"), triggers: () => [] });
    const listRecords = storage.listRecords.bind(storage);
    let raced = false;
    // The other process emits k1 right after this one looked the keys up.
    storage.listRecords = async (...args) => {
      const page = await listRecords(...args);
      if (!raced && args[1] === "data_event") {
        raced = true;
        await other.emit("demo", [{ name: "login", contextUri: null, dedupeKey: "k1" }]);
      }
      return page;
    };
    const made = await engine.emit("demo", [
      { name: "login", contextUri: null, dedupeKey: "k1" },
      { name: "login", contextUri: null, dedupeKey: "k2" },
    ]);
    expect(made.map((r) => r.data.dedupe_key)).toEqual(["k2"]);
    expect((await events()).map((r) => r.data.dedupe_key).sort()).toEqual(["k1", "k2"]);
  });

  it("skips stored keys across lookups of more than one batch of keys", async () => {
    const { engine } = await setup();
    const ev = (i: number) => ({ name: "login", contextUri: null, dedupeKey: `k${i}` });
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ev(from + i));
    expect(await engine.emit("demo", range(0, 150))).toHaveLength(150);
    const again = await engine.emit("demo", range(0, 250));
    expect(again.map((r) => r.data.dedupe_key)).toEqual(range(150, 250).map((e) => e.dedupeKey));
  });

  it("refuses an unknown trigger name, a bad time, an expiry before the fire time and an unknown flock, storing nothing", async () => {
    const { engine, events } = await setup();
    const ok = { name: "login", contextUri: null };
    expect((await rejection(engine.emit("demo", [ok, { name: "logn", contextUri: null }]))).code).toBe("bad_request");
    expect((await rejection(engine.emit("demo", [{ ...ok, fireAt: "yesterday" }]))).detail).toContain("fireAt");
    expect((await rejection(engine.emit("demo", [{ ...ok, fireAt: "2026-03-01", expiresAt: "2026-02-01" }]))).code).toBe("bad_request");
    expect((await rejection(engine.emit("nope", [ok]))).code).toBe("not_found");
    expect(await events()).toEqual([]);
  });
});
