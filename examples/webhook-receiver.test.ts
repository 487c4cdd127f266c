import type { AddressInfo } from "node:net";
import { formatWebhookKey, webhookHeaders, webhookKey } from "@records-service/server";
import { afterEach, describe, expect, it } from "vitest";
import { createReceiver, verifyDelivery, type VerifiedDelivery } from "./webhook-receiver.js";

const SECRET = "example-secret-0123456789";
/** What the server signs flock demo's deliveries with, and what `records-service webhook-secret demo` prints. */
const DEMO = webhookKey(SECRET, "demo");
const DEMO_TEXT = formatWebhookKey(DEMO);
const NOW = new Date("2026-01-15T10:00:00Z");
const TS = NOW.getTime() / 1000;
const BODY = JSON.stringify({ trigger: "contact_created", event: "contact", flock: "demo", data: { uri: "/demo/person/0123456789abcdef01234567/" }, contact: { first_name: "Ada" } });

let close: (() => void) | undefined;
afterEach(() => close?.());

async function start(): Promise<{ url: string; got: VerifiedDelivery[] }> {
  const got: VerifiedDelivery[] = [];
  const server = createReceiver({ webhookKey: DEMO_TEXT, onDelivery: (d) => got.push(d), now: () => NOW });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  close = () => server.close();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const post = (url: string, headers: Record<string, string>, body = BODY) => fetch(url, { method: "POST", headers, body });

describe("examples/webhook-receiver", () => {
  it("accepts a request signed as the server signs it, once per delivery id", async () => {
    const { url, got } = await start();
    const headers = { ...webhookHeaders(DEMO, "000000000000000000000001", TS, BODY) };
    expect((await post(url, headers)).status).toBe(200);
    expect((await post(url, headers)).status).toBe(200);
    expect(got).toEqual([{ id: "000000000000000000000001", timestamp: TS, payload: JSON.parse(BODY) }]);
  });

  it("refuses a changed body, another flock's key, the secret itself, a stale timestamp, one forged signature, and GET", async () => {
    const { url, got } = await start();
    const good = { ...webhookHeaders(DEMO, "d1", TS, BODY) };
    expect((await post(url, good, BODY.replace("Ada", "Eve"))).status).toBe(401);
    expect((await post(url, { ...webhookHeaders(webhookKey(SECRET, "club"), "d1", TS, BODY) })).status).toBe(401);
    expect((await post(url, { ...webhookHeaders(Buffer.from(SECRET, "utf8"), "d1", TS, BODY) })).status).toBe(401);
    expect((await post(url, { ...webhookHeaders(DEMO, "d1", TS - 3600, BODY) })).status).toBe(401);
    // Each signature is checked on its own: a valid one does not cover a forged other.
    expect((await post(url, { ...good, "X-Records-Signature": "sha256=" + "0".repeat(64) })).status).toBe(401);
    expect((await post(url, { ...good, "webhook-signature": "v1,AAAA" })).status).toBe(401);
    expect((await post(url, { ...good, "X-Records-Delivery": "other" })).status).toBe(401);
    expect((await fetch(url)).status).toBe(405);
    expect(got).toEqual([]);
  });

  it("verifyDelivery names why it refuses", () => {
    const headers = webhookHeaders(DEMO, "d1", TS, BODY);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyDelivery(DEMO_TEXT, lower, BODY, NOW)).toMatchObject({ ok: true });
    expect(verifyDelivery(DEMO_TEXT, { ...lower, "webhook-signature": "v1,x" }, BODY, NOW)).toEqual({ ok: false, reason: "bad webhook-signature" });
    expect(verifyDelivery(DEMO_TEXT, {}, BODY, NOW)).toEqual({ ok: false, reason: "missing webhook-id or webhook-timestamp" });
  });

  it("takes only a whsec_ key, refusing the server's secret at start", () => {
    expect(() => createReceiver({ webhookKey: SECRET, onDelivery: () => {} })).toThrow(/records-service webhook-secret FLOCK/);
  });
});
