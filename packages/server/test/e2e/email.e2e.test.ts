/**
 * End to end: email actions and the scheduler in the real CLI, with a real SMTP server on
 * loopback. A created contact gets its templated email (journal record + message at the
 * SMTP server); a membership whose `expiring_2wk` time comes while the server runs sends
 * its email to the fixed address through the scheduler, and so does one created with a
 * plain-date `end_date` whose event was due at 00:00 UTC today (the scheduler's catch-up).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp } from "@records-service/core";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

const tmp = mkdtempSync(join(tmpdir(), "records-email-e2e-"));
const received: Mail[] = [];
let smtp: SMTPServer;
let smtpPort = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  killAll();
  await new Promise<void>((r) => smtp.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

async function until<T>(what: string, get: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function serve(config: object): Promise<{ p: CliProcess; url: string }> {
  const file = join(tmp, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const p = startCli(["serve", "--port", "0", "--db", join(tmp, `${Math.random().toString(36).slice(2)}.db`), "--config", file]);
  const line = await p.line(/listening on http:\/\//, 20_000);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function client(url: string) {
  const res = await fetch(`${url}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "staff@example.org", password: "correct horse battery" }),
  });
  const key = ((await res.json()) as { api_key: string }).api_key;
  return async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, application: "e2e/email/1", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
}

const base = () => ({
  flocks: [{ identifier: "demo", name: "Demo Society" }],
  users: [{ username: "staff@example.org", password: "correct horse battery", flocks: ["demo"] }],
  mail: { smtp: `smtp://127.0.0.1:${smtpPort}`, from: "records@example.org" },
});

describe("email actions end to end", () => {
  it("contact_created → the templated email reaches the SMTP server and is journalled", async () => {
    const { p, url } = await serve({
      ...base(),
      templates: [{ flock: "demo", name: "welcome", subject: "Welcome <%= it.data.first_name %>", body: "<p>Hello <%= it.contact.first_name %> &amp; welcome to <%= it.flock %></p>" }],
      triggers: [{ flock: "demo", trigger: "contact_created", action: "send-templated-email", template: "welcome" }],
    });
    const api = await client(url);
    const created = await api("POST", "/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
    expect(created.status).toBe(201);
    const uri = created.body.uri as string;

    const journal = await until("the journal record", async () => {
      const list = await api("GET", "/api/v1/demo/journal/?kind=email");
      return list.body.results?.[0];
    });
    expect(journal.data).toMatchObject({
      kind: "email",
      status: "sent",
      to: "ada@example.org",
      subject: "Welcome Ada",
      body: "<p>Hello Ada &amp; welcome to demo</p>",
      template: "welcome",
      trigger: "contact_created",
      contact_ref: uri,
    });
    const mail = await until("the message at the SMTP server", () => received.find((m) => m.to.includes("ada@example.org")));
    expect(mail.from).toBe("records@example.org");
    expect(mail.raw).toContain("Subject: Welcome Ada");
    expect(mail.raw).toContain("Hello Ada &amp; welcome to demo");
    // The data event carries the action's tag: it fired once.
    const events = await api("GET", "/api/v1/demo/data_event/?name=contact_created");
    expect(events.body.results.map((e: any) => e.data.tags)).toEqual([["send-templated-email"]]);

    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
    expect(received.filter((m) => m.to.includes("ada@example.org"))).toHaveLength(1);
  });

  it("the scheduler emits expiring_2wk when its time comes and the email goes to the fixed address", async () => {
    const { p, url } = await serve({
      ...base(),
      scheduler: { cron: "* * * * * *" },
      templates: [{ flock: "demo", name: "expiring", subject: "Expiring: <%= it.contact.last_name %>", body: "<p><%= it.data.end_date %></p>" }],
      triggers: [{ flock: "demo", trigger: "expiring_2wk", action: "send-email-to-fixed-address", url: "ops@example.org", template: "expiring" }],
    });
    const api = await client(url);
    const person = await api("POST", "/api/v1/demo/person/", { first_name: "Grace", last_name: "Hopper" });
    // Fires 14 days before end_date: a few seconds from now, while the server runs.
    const endDate = formatTimestamp(new Date(Date.now() + 14 * 86_400_000 + 4_000));
    const membership = await api("POST", "/api/v1/demo/membership/", { member: person.body.uri, end_date: endDate, auto_renew: false });
    expect(membership.status).toBe(201);

    const mail = await until("the expiring email", () => received.find((m) => m.to.includes("ops@example.org")), 20_000);
    expect(mail.raw).toContain("Subject: Expiring: Hopper");
    const events = await api("GET", "/api/v1/demo/data_event/?name=expiring_2wk");
    expect(events.body.results).toHaveLength(1);
    expect(events.body.results[0].data).toMatchObject({ context_ref: membership.body.uri, event: "expiring", variation: "2wk" });
    const journal = await until("the journal record", async () => (await api("GET", "/api/v1/demo/journal/?to=ops@example.org")).body.results?.[0]);
    expect(journal.data).toMatchObject({ status: "sent", trigger: "expiring_2wk", template: "expiring" });

    // A plain date: end_date today+14 means 00:00 UTC, so expiring_2wk was due at 00:00 today,
    // before the record existed. The next run catches it up, once.
    const hedy = await api("POST", "/api/v1/demo/person/", { first_name: "Hedy", last_name: "Lamarr" });
    const plainDate = formatTimestamp(new Date(Date.now() + 14 * 86_400_000)).slice(0, 10);
    const plain = await api("POST", "/api/v1/demo/membership/", { member: hedy.body.uri, end_date: plainDate, auto_renew: false });
    expect(plain.status).toBe(201);
    const plainMail = await until("the plain-date expiring email", () => received.find((m) => m.raw.includes("Subject: Expiring: Lamarr")), 20_000);
    expect(plainMail.to).toEqual(["ops@example.org"]);
    const plainEvents = await api("GET", `/api/v1/demo/data_event/?name=expiring_2wk&context_ref=${encodeURIComponent(plain.body.uri)}`);
    expect(plainEvents.body.results.map((e: any) => e.data.fire_at)).toEqual([
      formatTimestamp(new Date(Date.parse(plainDate) - 14 * 86_400_000)),
    ]);

    // Later runs do not send them again.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(received.filter((m) => m.to.includes("ops@example.org"))).toHaveLength(2);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });
});
