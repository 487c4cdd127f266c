import {
  createMemoryStorage,
  createSequentialIds,
  validateTriggers,
  type ActionRunContext,
  type StoredRecord,
  type TriggerEntryInput,
} from "@records-service/core";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../config/issues.js";
import { contactAddress } from "./compose.js";
import { createEmailActions, NO_TRANSPORT_NOTE, runEmailAction, type EmailActionOptions, type RecordedFailure } from "./actions.js";
import { compileTemplates } from "./templates.js";
import { MailSendError, type MailTransport, type OutgoingMail } from "./transport.js";

const NOW = new Date("2026-03-01T09:30:00.000Z");
const FLOCK = { identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" };

const templates = compileTemplates([
  { flock: "demo", name: "welcome", subject: "Hello <%= it.data.first_name %> of <%= it.flock %>", body: "<p>Dear <%= it.contact.first_name %>, <%~ '<b>welcome</b>' %> (<%= it.name %>)</p>" },
  { flock: "demo", name: "vip", subject: "VIP <%= it.data.first_name %>", body: "<p>vip</p>" },
  { flock: "demo", name: "hall", subject: "Hall", body: "<p>hall</p>" },
  { flock: "demo", name: "broken", subject: "x", body: "<%= it.nothing.here %>" },
  { flock: "other", name: "welcome", subject: "Other flock", body: "" },
]);

function record(type: string, id: string, data: Record<string, unknown>, displayValue = ""): StoredRecord {
  return { id, flock: "demo", type, state: "updated", data, displayValue, created: "2026-03-01T09:00:00.000000", lastUpdated: "2026-03-01T09:00:00.000000", version: 1 };
}

const ADA = record("person", "a".repeat(24), { first_name: "Ada", email: ["ada@home.example;home", "ada@work.example;work__primary"], tags: ["member", "vip"] });
const EVENT = record("data_event", "e".repeat(24), {
  name: "contact_created",
  event: "contact",
  variation: "created",
  fire_at: "2026-03-01T09:00:00.000000",
  context_ref: `/demo/person/${ADA.id}/`,
  tags: [],
  expires_at: "2028-03-01T09:00:00.000000",
});

function trigger(over: Partial<TriggerEntryInput> = {}) {
  const entry = { flock: "demo", trigger: "contact_created", action: "send-templated-email", template: "welcome", ...over } as TriggerEntryInput;
  return validateTriggers([entry]).triggers[0]!;
}

function runContext(over: Partial<ActionRunContext> = {}): ActionRunContext {
  return {
    job: { id: "j".repeat(24), flock: "demo", dataEventId: EVENT.id, trigger: "contact_created", action: "send-templated-email", deliveryId: "d".repeat(24), status: "pending", attempts: 0, nextAttemptAt: "", firstAttemptAt: null, lastError: null, lastStatus: null, created: "" } as ActionRunContext["job"],
    trigger: trigger(),
    dataEvent: EVENT,
    record: ADA,
    contact: ADA,
    flock: FLOCK,
    secret: "s".repeat(16),
    now: NOW,
    payload: { trigger: "contact_created", event: "contact", flock: "demo", data: { id: ADA.id, first_name: "Ada" }, contact: ADA.data },
    body: "{}",
    ...over,
  };
}

function fakeTransport(fail?: Error): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(m) {
      if (fail) throw fail;
      sent.push(m);
      return { messageId: "<1@test>" };
    },
    close() {},
  };
}

function options(over: Partial<EmailActionOptions> = {}): EmailActionOptions {
  return { templates, records: createMemoryStorage(), ids: createSequentialIds("0"), transport: fakeTransport(), ...over };
}

function journalOf(outcome: unknown): Record<string, unknown> {
  const changes = (outcome as { changes?: { records?: { record: StoredRecord }[] } }).changes;
  expect(changes?.records).toHaveLength(1);
  const r = changes!.records![0]!.record;
  expect({ type: r.type, flock: r.flock, state: r.state, created: r.created, version: r.version }).toEqual({
    type: "journal",
    flock: "demo",
    state: "updated",
    created: "2026-03-01T09:30:00.000000",
    version: 1,
  });
  return r.data;
}

describe("send-templated-email", () => {
  it("sends to the contact's primary address and journals it", async () => {
    const transport = fakeTransport();
    const outcome = await runEmailAction("send-templated-email", runContext(), options({ transport }));
    expect(outcome.ok).toBe(true);
    expect(transport.sent).toEqual([
      { to: "ada@work.example", subject: "Hello Ada of demo", html: "<p>Dear Ada, <b>welcome</b> (contact_created)</p>" },
    ]);
    expect(journalOf(outcome)).toEqual({
      kind: "email",
      status: "sent",
      to: "ada@work.example",
      subject: "Hello Ada of demo",
      body: "<p>Dear Ada, <b>welcome</b> (contact_created)</p>",
      template: "welcome",
      trigger: "contact_created",
      contact_ref: `/demo/person/${ADA.id}/`,
      data_event_ref: `/demo/data_event/${EVENT.id}/`,
      message_id: "<1@test>",
    });
  });

  it("escapes values in the HTML body but not in the plain-text subject", async () => {
    const evil = record("person", "b".repeat(24), { first_name: `<script>x</script>\r\n& "Co"`, email: ["e@example.org"] });
    const transport = fakeTransport();
    await runEmailAction("send-templated-email", runContext({ record: evil, contact: evil }), options({ transport }));
    // A header: not escaped, and a line break in a value cannot start another header line.
    expect(transport.sent[0]!.subject).toBe(`Hello <script>x</script> & "Co" of demo`);
    expect(transport.sent[0]!.html).toBe("<p>Dear &lt;script&gt;x&lt;/script&gt;\r\n&amp; &quot;Co&quot;, <b>welcome</b> (contact_created)</p>");
  });

  it.each([
    { name: "a list field holds the value (rule 6)", conditions: [{ tags: "vip" }], expected: "vip" },
    { name: "every condition must hold (rule 3)", conditions: [{ tags: "vip", first_name: "Bob" }], expected: "welcome" },
    { name: "a field of the data event (rule 5)", conditions: [{ variation: "created" }], expected: "vip" },
    { name: "no rule applies: the trigger's template (rule 4)", conditions: [{ tags: "gold" }], expected: "welcome" },
  ])("conditional templates: $name", async ({ conditions, expected }) => {
    const t = trigger({ conditional_templates: { template: [{ order: 1, template: "vip", conditions }] } });
    const outcome = await runEmailAction("send-templated-email", runContext({ trigger: t }), options());
    expect(journalOf(outcome).template).toBe(expected);
  });

  it("conditional templates: ascending order, a JSON string, and a reference by name (rules 1, 2, 7)", async () => {
    const storage = createMemoryStorage();
    await storage.createFlock(FLOCK);
    const hall = record("bookable", "c".repeat(24), { title: "Main Hall" }, "Main Hall");
    await storage.apply({ records: [{ kind: "insert", record: hall }] });
    const booking = record("reservation", "f".repeat(24), { bookable_ref: `/demo/bookable/${hall.id}/`, buyer_ref: `/demo/person/${ADA.id}/` });
    const rules = JSON.stringify({
      template: [
        { order: 5, template: "vip", conditions: [{ bookable_ref: `/demo/bookable/${hall.id}/` }] },
        { order: 2, template: "hall", conditions: [{ bookable_ref: "Main Hall" }] },
      ],
    });
    const t = trigger({ trigger: "reservation_created", conditional_templates: rules });
    const outcome = await runEmailAction("send-templated-email", runContext({ trigger: t, record: booking }), options({ records: storage }));
    expect(journalOf(outcome).template).toBe("hall");
  });

  it("sends nothing when no rule applies and the trigger has no default template", async () => {
    const t = trigger({ template: "", conditional_templates: { template: [{ order: 1, template: "vip", conditions: [{ tags: "gold" }] }] } });
    const transport = fakeTransport();
    expect(await runEmailAction("send-templated-email", runContext({ trigger: t }), options({ transport }))).toEqual({ ok: true });
    expect(transport.sent).toEqual([]);
  });

  it.each([
    { name: "a contact without email", ctx: { contact: record("person", "b".repeat(24), { first_name: "Bo", email: [null] }) } },
    { name: "an email entry that is not an address", ctx: { contact: record("person", "b".repeat(24), { first_name: "Bo", email: ["nobody;home"] }) } },
  ])("no recipient ($name): a permanent failure journalled as failed", async ({ ctx }) => {
    const transport = fakeTransport();
    const outcome = (await runEmailAction("send-templated-email", runContext(ctx), options({ transport }))) as RecordedFailure;
    expect(outcome).toMatchObject({ ok: false, permanent: true, error: expect.stringMatching(/^no recipient: contact \/demo\/person\/b+\/ has no email address$/) });
    expect(journalOf(outcome)).toMatchObject({ status: "failed", to: null, template: "welcome", subject: "Hello Ada of demo", error: outcome.error });
    expect(transport.sent).toEqual([]);
  });

  it("no contact at all: a permanent failure", async () => {
    const ctx = runContext();
    delete ctx.contact;
    const t = trigger({ template: "vip" });
    const outcome = (await runEmailAction("send-templated-email", { ...ctx, trigger: t }, options())) as RecordedFailure;
    expect(outcome).toMatchObject({ ok: false, permanent: true, error: "no recipient: the event has no contact" });
    expect(journalOf(outcome)).toMatchObject({ status: "failed", contact_ref: null });
  });

  it("an SMTP failure that may pass is retried, with no journal yet", async () => {
    const transport = fakeTransport(new MailSendError("smtp: connect ECONNREFUSED 127.0.0.1:2525", false));
    expect(await runEmailAction("send-templated-email", runContext(), options({ transport }))).toEqual({
      ok: false,
      error: "smtp: connect ECONNREFUSED 127.0.0.1:2525",
    });
  });

  it("an SMTP refusal (5xx) is permanent and journalled as failed", async () => {
    const transport = fakeTransport(new MailSendError("smtp: 550 mailbox unavailable", true));
    const outcome = await runEmailAction("send-templated-email", runContext(), options({ transport }));
    expect(outcome).toMatchObject({ ok: false, permanent: true, error: "smtp: 550 mailbox unavailable" });
    expect(journalOf(outcome)).toMatchObject({ status: "failed", to: "ada@work.example", error: "smtp: 550 mailbox unavailable" });
  });

  it("without mail.smtp the email is kept as a draft, saying why", async () => {
    const o = options();
    delete o.transport;
    const outcome = await runEmailAction("send-templated-email", runContext(), o);
    expect(outcome.ok).toBe(true);
    expect(journalOf(outcome)).toMatchObject({ status: "draft", to: "ada@work.example", error: NO_TRANSPORT_NOTE });
  });

  it.each([
    { name: "a template that no longer exists", template: "gone", error: 'template "gone" does not exist in flock demo' },
    { name: "a template that fails at run time", template: "broken", error: /^template "broken" failed: / },
  ])("$name: a permanent failure journalled as failed", async ({ template, error }) => {
    const t = { ...trigger(), template };
    const outcome = (await runEmailAction("send-templated-email", runContext({ trigger: t }), options())) as RecordedFailure;
    expect(outcome).toMatchObject({ ok: false, permanent: true, error: typeof error === "string" ? error : expect.stringMatching(error) });
    expect(journalOf(outcome)).toMatchObject({ status: "failed", template, subject: null, body: null });
  });
});

describe("draft-templated-email", () => {
  it("never sends; journals a draft", async () => {
    const transport = fakeTransport();
    const t = trigger({ action: "draft-templated-email" });
    const outcome = await runEmailAction("draft-templated-email", runContext({ trigger: t }), options({ transport }));
    expect(transport.sent).toEqual([]);
    expect(journalOf(outcome)).toMatchObject({ status: "draft", to: "ada@work.example", template: "welcome" });
    expect(journalOf(outcome)).not.toHaveProperty("error");
  });
});

describe("send-email-to-fixed-address", () => {
  it("sends to the trigger's address whatever the contact has", async () => {
    const transport = fakeTransport();
    const t = trigger({ action: "send-email-to-fixed-address", url: "mailto:ops@example.org" });
    const noEmail = record("person", "b".repeat(24), { first_name: "Bo" });
    const outcome = await runEmailAction("send-email-to-fixed-address", runContext({ trigger: t, contact: noEmail }), options({ transport }));
    expect(transport.sent.map((m) => m.to)).toEqual(["ops@example.org"]);
    expect(journalOf(outcome)).toMatchObject({ status: "sent", to: "ops@example.org", contact_ref: `/demo/person/${"b".repeat(24)}/` });
  });
});

describe("createEmailActions", () => {
  it("provides the three email actions", () => {
    expect(createEmailActions(options()).map((h) => h.action)).toEqual([
      "send-templated-email",
      "draft-templated-email",
      "send-email-to-fixed-address",
    ]);
  });
});

describe("compileTemplates", () => {
  it("refuses a template that does not compile, naming it", () => {
    expect(() =>
      compileTemplates([
        { flock: "demo", name: "ok", subject: "", body: "" },
        { flock: "demo", name: "bad", subject: "fine", body: "<% if ( %>" },
      ]),
    ).toThrow(new ConfigError('config: "templates[1] (flock demo, name bad).body" is not a valid Eta template: Bad template syntax'));
  });

  it("keeps flocks apart", () => {
    expect(templates.get("other", "welcome")?.subject({})).toBe("Other flock");
    expect(templates.get("demo", "nope")).toBeUndefined();
  });
});

describe("contactAddress", () => {
  it.each([
    { email: ["a@x.org;home", "b@x.org;work__primary"], expected: "b@x.org" },
    { email: ["a@x.org;home", "b@x.org"], expected: "a@x.org" },
    { email: "c@x.org", expected: "c@x.org" },
    { email: [], expected: null },
    { email: null, expected: null },
    { email: ["not an address"], expected: null },
  ])("$email → $expected", ({ email, expected }) => {
    expect(contactAddress(record("person", "a".repeat(24), { email }))).toBe(expected);
  });
  it("no contact → null", () => {
    expect(contactAddress(undefined)).toBeNull();
  });
});
