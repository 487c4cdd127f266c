import { validateTriggers, type ActionRunContext } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { webhookKey } from "../config/keys.js";
import { verifyRecordsSignature, verifyStandardSignature } from "./signature.js";
import { deliverWebhook } from "./webhook.js";
import { createWebhookFetch } from "./webhook-fetch.js";

function ctx(url = "https://hooks.example.org/r"): ActionRunContext {
  const [trigger] = validateTriggers([{ flock: "demo", trigger: "login", action: "send-json-webhook", url }], { allowInsecureUrls: true }).triggers;
  return {
    job: { deliveryId: "000000000000000000000009" } as ActionRunContext["job"],
    trigger: trigger!,
    dataEvent: {} as ActionRunContext["dataEvent"],
    flock: { identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" },
    secret: "test-secret-0123456789",
    now: new Date("2026-01-15T10:00:00Z"),
    payload: { trigger: "login", event: "login", flock: "demo", data: null, contact: null },
    body: '{"trigger":"login"}',
  };
}

describe("deliverWebhook", () => {
  it.each(["demo", "club"])("signs both headers with flock %s's own webhook key, not the secret or another flock's", async (flock) => {
    let headers: Record<string, string> = {};
    const fetch = (async (_u: unknown, i?: RequestInit) => ((headers = i!.headers as Record<string, string>), new Response("ok"))) as typeof globalThis.fetch;
    const c = ctx();
    await deliverWebhook({ ...c, flock: { ...c.flock, identifier: flock } }, { fetch });
    const other = flock === "demo" ? "club" : "demo";
    const check = (key: Buffer) => [
      verifyRecordsSignature(key, c.body, headers["X-Records-Signature"]),
      verifyStandardSignature(key, c.job.deliveryId, headers["webhook-timestamp"]!, c.body, headers["webhook-signature"]),
    ];
    expect(check(webhookKey(c.secret, flock))).toEqual([true, true]);
    expect(check(webhookKey(c.secret, other))).toEqual([false, false]);
    expect(check(Buffer.from(c.secret, "utf8"))).toEqual([false, false]);
  });

  it("POSTs the body without following redirects; a 3xx is a failure", async () => {
    let init: RequestInit | undefined;
    const fetch = (async (_u: unknown, i?: RequestInit) => {
      init = i;
      return new Response(null, { status: 302, headers: { location: "https://elsewhere.example.org/" } });
    }) as typeof globalThis.fetch;
    expect(await deliverWebhook(ctx(), { fetch })).toEqual({ ok: false, status: 302, error: "HTTP 302" });
    expect(init).toMatchObject({ method: "POST", redirect: "manual", body: '{"trigger":"login"}' });
  });

  it.each([200, 201])("%i counts as delivered", async (status) => {
    const fetch = (async () => new Response("ok", { status })) as typeof globalThis.fetch;
    expect(await deliverWebhook(ctx(), { fetch })).toEqual({ ok: true, status });
  });

  it.each([202, 204, 400, 500])("%i does not", async (status) => {
    const fetch = (async () => new Response(status === 204 ? null : "x".repeat(5000), { status })) as typeof globalThis.fetch;
    const out = await deliverWebhook(ctx(), { fetch });
    expect(out).toMatchObject({ ok: false, status });
    expect(out.ok ? "" : out.error.length).toBeLessThanOrEqual(210);
  });

  it("times out a receiver that does not answer", async () => {
    const fetch = ((_u: unknown, i?: RequestInit) =>
      new Promise((_, reject) => i?.signal?.addEventListener("abort", () => reject(i.signal!.reason)))) as typeof globalThis.fetch;
    expect(await deliverWebhook(ctx(), { fetch, timeoutMs: 20 })).toEqual({ ok: false, error: "timed out" });
  });

  it("refuses an http:// URL unless insecure URLs are allowed, without sending", async () => {
    let called = false;
    const fetch = (async () => ((called = true), new Response())) as typeof globalThis.fetch;
    const out = await deliverWebhook(ctx("http://hooks.example.org/r"), { fetch });
    expect(out).toMatchObject({ ok: false, permanent: true });
    expect(called).toBe(false);
    expect(await deliverWebhook(ctx("http://hooks.example.org/r"), { fetch, allowInsecureUrls: true })).toMatchObject({ ok: true });
  });

  it("a literal private address (or localhost) is dead at once without the flags: only a config change fixes it", async () => {
    let called = false;
    const fetch = (async () => ((called = true), new Response())) as typeof globalThis.fetch;
    for (const url of ["https://10.0.0.5/hook", "https://[::1]/hook", "https://localhost/hook", "https://localhost./hook", "https://api.localhost./hook", "https://10.0.0.1./hook", "https://10.0.0.1../hook"]) {
      const out = await deliverWebhook(ctx(url), { fetch });
      expect(out).toMatchObject({ ok: false, permanent: true, error: expect.stringContaining("webhooks.allowPrivateTargets") });
    }
    expect(called).toBe(false);
    expect(await deliverWebhook(ctx("https://10.0.0.5/hook"), { fetch, allowPrivateTargets: true })).toMatchObject({ ok: true });
  });

  it("a name resolving to a private address at connect time fails the attempt with a clear error, to be retried", async () => {
    const fetch = createWebhookFetch({ allowPrivateTargets: false, resolve: (_h, _o, cb) => cb(null, [{ address: "192.168.7.7", family: 4 }]) });
    expect(await deliverWebhook(ctx("https://hooks.example.org/r"), { fetch })).toEqual({
      ok: false,
      error: "refused: hooks.example.org resolves to 192.168.7.7 (private); webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set",
    });
  });
});
