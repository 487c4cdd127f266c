/**
 * End to end: webhooks from the real server process to a loopback receiver. A created
 * contact is delivered once, signed; a failing receiver gets the same delivery until it
 * answers 200; a server killed (SIGKILL) mid-delivery delivers after a restart on the
 * same database; an insecure URL, or a literal private or loopback target, is refused at
 * start. Deliveries verify with the key `records-service webhook-secret` prints.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeConfigFile } from "./config-helpers.js";
import { killAll, runCliToEnd, startCli, type CliProcess } from "./spawn-cli.js";

const SECRET = "e2e-webhook-secret-0123456789";
const tmp = mkdtempSync(join(tmpdir(), "records-webhooks-"));
let n = 0;
const receivers: Server[] = [];

afterAll(() => {
  killAll();
  for (const r of receivers) r.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** One delivery the receiver got. */
interface Delivery {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A loopback receiver answering each request with `answer(i)` (i from 0), or holding it open when that returns null. */
async function receiver(answer: (i: number) => number | null): Promise<{ url: string; got: Delivery[] }> {
  const got: Delivery[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const i = got.length;
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = answer(i);
      if (status === null) return; // never answers: the server will be killed meanwhile
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "not now");
    });
  });
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

function writeConfig(hookUrl: string, extra: Record<string, unknown> = {}): string {
  return writeConfigFile(tmp, {
    secret: SECRET,
    flocks: [{ identifier: "demo", name: "Demo" }],
    users: [{ username: "ada@example.org", password: "pw-for-e2e", flocks: ["demo"] }],
    triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hookUrl }],
    scheduler: { cron: "* * * * * *" },
    // The receivers are on loopback over http: both flags (allowInsecureUrls alone would also let loopback through).
    webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 200, retryWindowHours: 1 },
    ...extra,
  });
}

async function serve(db: string, config: string): Promise<{ p: CliProcess; url: string }> {
  const p = startCli(["serve", "--db", db, "--port", "0", "--config", config, "--quiet"]);
  const line = await p.line(/listening on http:\/\//);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function createPerson(url: string, data: Record<string, unknown>): Promise<{ uri: string }> {
  const auth = await fetch(`${url}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada@example.org", password: "pw-for-e2e" }),
  });
  const { api_key } = (await auth.json()) as { api_key: string };
  const res = await fetch(`${url}/api/v1/demo/person/`, {
    method: "POST",
    headers: { authorization: `Bearer ${api_key}`, application: "e2e/webhooks/1", "content-type": "application/json" },
    body: JSON.stringify(data),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { uri: string };
}

/** Waits (bounded) until `got` has `count` deliveries. */
async function deliveries(got: Delivery[], count: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (got.length < count) {
    if (Date.now() > until) throw new Error(`expected ${count} deliveries within ${timeoutMs} ms, got ${got.length}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The flock's webhook key as its receivers get it: `records-service webhook-secret demo`. */
async function webhookSecret(db: string, flock = "demo"): Promise<string> {
  const r = await runCliToEnd(["webhook-secret", flock, "--db", db]);
  expect(r.code).toBe(0);
  expect(r.stdout).toHaveLength(1);
  return r.stdout[0]!;
}

/** Checks both signatures as a receiver does, with the printed `whsec_` key (base64 after the prefix, as Standard Webhooks libraries read it). */
function expectSigned(d: Delivery, keyText: string): void {
  const key = Buffer.from(keyText.replace(/^whsec_/, ""), "base64");
  const id = String(d.headers["webhook-id"]);
  const ts = String(d.headers["webhook-timestamp"]);
  expect(d.headers["content-type"]).toBe("application/json");
  expect(d.headers["x-records-delivery"]).toBe(id);
  expect(d.headers["x-records-signature"]).toBe(`sha256=${createHmac("sha256", key).update(d.body).digest("hex")}`);
  const mac = createHmac("sha256", key).update(`${id}.${ts}.${d.body}`).digest("base64");
  expect(d.headers["webhook-signature"]).toBe(`v1,${mac}`);
  expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
  // Not keyed with the secret itself (issue 15): a receiver's key signs nothing else.
  expect(d.headers["x-records-signature"]).not.toBe(`sha256=${createHmac("sha256", SECRET).update(d.body).digest("hex")}`);
}

// Starts and logins hash at the shipped scrypt cost (N = 2^17): each test gets a minute.
describe.concurrent("webhooks end to end", () => {
  it("delivers a created contact once, signed with the key `webhook-secret` prints", async () => {
    const hook = await receiver(() => 200);
    const db = join(tmp, `db-${++n}`, "records.db");
    const { p, url } = await serve(db, writeConfig(hook.url));
    const person = await createPerson(url, { first_name: "Ada", last_name: "Lovelace" });
    await deliveries(hook.got, 1);
    const [d] = hook.got;
    const key = await webhookSecret(db);
    expect(key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expectSigned(d!, key);
    const body = JSON.parse(d!.body);
    expect(body).toMatchObject({ trigger: "contact_created", event: "contact", flock: "demo", contact: { first_name: "Ada", last_name: "Lovelace" } });
    expect(body.data).toMatchObject({ bucket: "demo", resource: "person", uri: person.uri, data: { formatted_name: "Ada Lovelace" } });
    await pause(2500);
    expect(hook.got).toHaveLength(1);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("a receiver that fails twice gets the same delivery a third time, then no more", async () => {
    const hook = await receiver((i) => (i < 2 ? 503 : 200));
    const db = join(tmp, `db-${++n}`, "records.db");
    const { p, url } = await serve(db, writeConfig(hook.url));
    await createPerson(url, { first_name: "Grace" });
    await deliveries(hook.got, 3);
    const ids = hook.got.map((d) => d.headers["x-records-delivery"]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(hook.got.map((d) => d.body)).size).toBe(1);
    const key = await webhookSecret(db);
    for (const d of hook.got) expectSigned(d, key);
    await pause(2500);
    expect(hook.got).toHaveLength(3);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
    const jobs = await runCliToEnd(["jobs", "--db", db]);
    expect(jobs.code).toBe(0);
    expect(jobs.stdout[1]).toMatch(/done\s+3\s+-\s+200\s+demo\s+contact_created\s+send-json-webhook/);
  });

  it("a server killed between the change and the delivery delivers it after a restart, once the claim lapsed", async () => {
    let hold = true;
    const hook = await receiver(() => (hold ? null : 200));
    const db = join(tmp, `db-${++n}`, "records.db");
    // The killed process's claim on the job lapses after workers.leaseMs: short here.
    const config = writeConfig(hook.url, { workers: { leaseMs: 1500 } });
    const first = await serve(db, config);
    await createPerson(first.url, { first_name: "Katherine" });
    // The delivery is in flight (the receiver holds it): kill the server now.
    await deliveries(hook.got, 1);
    first.p.child.kill("SIGKILL");
    await first.p.exited();
    hold = false;
    const second = await serve(db, config);
    await deliveries(hook.got, 2);
    expect(hook.got[1]!.headers["x-records-delivery"]).toBe(hook.got[0]!.headers["x-records-delivery"]);
    expect(hook.got[1]!.body).toBe(hook.got[0]!.body);
    expectSigned(hook.got[1]!, await webhookSecret(db));
    await pause(2000);
    expect(hook.got).toHaveLength(2);
    second.p.child.kill("SIGTERM");
    expect(await second.p.exited()).toBe(0);
  });

  it("refuses to start with a literal loopback or private webhook target unless allowPrivateTargets (issue 15)", async () => {
    const config = writeConfig("https://127.0.0.1:9/hook", { webhooks: {} });
    const r = await runCliToEnd(["serve", "--db", ":memory:", "--port", "0", "--config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr.join("\n")).toMatch(
      /triggers\[0\] \(contact_created, send-json-webhook\): url "https:\/\/127\.0\.0\.1:9\/hook" points at 127\.0\.0\.1, a loopback address; .*webhooks\.allowPrivateTargets/,
    );
    const allowed = await serve(":memory:", writeConfig("https://127.0.0.1:9/hook", { webhooks: { allowPrivateTargets: true } }));
    allowed.p.child.kill("SIGTERM");
    expect(await allowed.p.exited()).toBe(0);
  });

  it("refuses to start with an http:// webhook URL unless allowInsecureUrls", async () => {
    const config = writeConfig("http://127.0.0.1:9/hook", { webhooks: { allowInsecureUrls: false } });
    const r = await runCliToEnd(["serve", "--db", ":memory:", "--port", "0", "--config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr.join("\n")).toMatch(/triggers\[0\] \(contact_created, send-json-webhook\).*https:\/\/.*allowInsecureUrls/);
  });
});
