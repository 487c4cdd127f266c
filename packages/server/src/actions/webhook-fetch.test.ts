import { createServer, type IncomingMessage, type Server } from "node:http";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestrictedTargetError, type Resolver } from "./guarded-lookup.js";
import { createWebhookFetch } from "./webhook-fetch.js";

/** A loopback receiver that records each request and answers from `answer`. */
let server: Server;
let port = 0;
const got: { path: string; headers: IncomingMessage["headers"]; body: string }[] = [];
let answer: (res: import("node:http").ServerResponse) => void = (res) => res.writeHead(200).end("ok");

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      answer(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A resolver that answers `addresses` for every name and counts its calls. */
function fixedResolver(...addresses: string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = ((host, _options, callback) => {
    calls.push(host);
    const list: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    queueMicrotask(() => callback(null, list));
  }) as Resolver & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

const post = (f: typeof fetch, url: string, body = '{"a":1}') =>
  f(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Test": "1" }, body });

describe("createWebhookFetch: where it connects", () => {
  it("refuses localhost (which resolves to 127.0.0.1) without the flag, sending nothing, and delivers with it", async () => {
    const before = got.length;
    const guarded = createWebhookFetch({ allowPrivateTargets: false });
    const refused = await post(guarded, `http://localhost:${port}/hook`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestrictedTargetError);
    expect((refused as Error).message).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1) \(loopback\); webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets/);
    expect(got).toHaveLength(before);

    const allowed = createWebhookFetch({ allowPrivateTargets: true });
    const res = await post(allowed, `http://localhost:${port}/hook`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    expect(got.at(-1)).toMatchObject({ path: "/hook", body: '{"a":1}', headers: { "content-type": "application/json", "x-test": "1", "content-length": "7" } });
  });

  it.each([`http://127.0.0.1:PORT/hook`, `http://[::ffff:127.0.0.1]:PORT/hook`, `http://0.0.0.0:PORT/hook`, `http://127.0.0.1.:PORT/hook`, `http://127.0.0.1..:PORT/hook`, `http://127.1..:PORT/hook`, `http://2130706433..:PORT/hook`])(
    "refuses a literal restricted address (%s) before connecting, without a lookup",
    async (template) => {
      const resolve = fixedResolver("93.184.215.14");
      const before = got.length;
      const refused = await post(createWebhookFetch({ allowPrivateTargets: false, resolve }), template.replace("PORT", String(port))).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RestrictedTargetError);
      expect(resolve.calls).toEqual([]);
      expect(got).toHaveLength(before);
    },
  );

  it.each(["localhost.", "api.localhost.", "LOCALHOST.."])(
    "resolves %s as localhost at connect time (issue 20, point 5): refused without the flag, delivered to loopback with it",
    async (name) => {
      const before = got.length;
      const refused = await post(createWebhookFetch({ allowPrivateTargets: false }), `http://${name}:${port}/hook`).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RestrictedTargetError);
      expect((refused as Error).message).toMatch(/^refused: \S+ resolves to (127\.0\.0\.1|::1) \(loopback\); webhook targets in private, loopback and link-local ranges are refused/);
      expect(got).toHaveLength(before);

      const res = await post(createWebhookFetch({ allowPrivateTargets: true }), `http://${name}:${port}/hook`);
      expect(res.status).toBe(200);
      expect(got).toHaveLength(before + 1);
    },
  );

  it("asks the resolver for a localhost name as localhost, and for any other name as written", async () => {
    // A restricted answer, so that nothing connects anywhere.
    const resolve = fixedResolver("10.0.0.7");
    const fetch = createWebhookFetch({ allowPrivateTargets: false, resolve });
    for (const url of ["https://api.localhost./in", "https://hooks.example.org./in"]) {
      expect(await post(fetch, url).catch((e: unknown) => e)).toBeInstanceOf(RestrictedTargetError);
    }
    expect(resolve.calls).toEqual(["localhost", "hooks.example.org."]);
  });

  it("checks what the name resolves to at connect time: a public-looking name resolving to a private address is refused", async () => {
    const resolve = fixedResolver("10.0.0.7");
    const refused = await post(createWebhookFetch({ allowPrivateTargets: false, resolve }), "https://hooks.example.org/in").catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      "refused: hooks.example.org resolves to 10.0.0.7 (private); webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set",
    );
    expect(resolve.calls).toEqual(["hooks.example.org"]);
  });

  it("refuses when any resolved address is restricted, even beside a public one (rebinding)", async () => {
    const resolve = fixedResolver("93.184.215.14", "169.254.169.254");
    const refused = await post(createWebhookFetch({ allowPrivateTargets: false, resolve }), "https://hooks.example.org/in").catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^refused: hooks.example.org resolves to 169.254.169.254 \(link-local\)/);
  });

  it("resolves for each new connection, keeping no DNS answer of its own", async () => {
    const resolve = fixedResolver("127.0.0.1");
    const allowed = createWebhookFetch({ allowPrivateTargets: true, resolve });
    expect((await post(allowed, `http://first.example:${port}/a`)).status).toBe(200);
    expect((await post(allowed, `http://second.example:${port}/b`)).status).toBe(200);
    expect(resolve.calls).toEqual(["first.example", "second.example"]);
  });

  it("connects to the address the guarded lookup returned (the lookup is the one in use)", async () => {
    const resolve = fixedResolver("127.0.0.1");
    const res = await post(createWebhookFetch({ allowPrivateTargets: true, resolve }), `http://hooks.example.org:${port}/via-lookup`);
    expect(res.status).toBe(200);
    expect(got.at(-1)).toMatchObject({ path: "/via-lookup", headers: { host: `hooks.example.org:${port}` } });
  });
});

describe("createWebhookFetch: answers", () => {
  const f = createWebhookFetch({ allowPrivateTargets: true });

  it("passes status, headers and body through, and follows no redirect", async () => {
    answer = (res) => res.writeHead(503, { "Retry-After": "120", "Content-Type": "text/plain" }).end("busy");
    const busy = await post(f, `http://127.0.0.1:${port}/x`);
    expect([busy.status, busy.headers.get("retry-after"), await busy.text()]).toEqual([503, "120", "busy"]);
    answer = (res) => res.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
    const before = got.length;
    const moved = await post(f, `http://127.0.0.1:${port}/x`);
    expect(moved.status).toBe(302);
    expect(got).toHaveLength(before + 1);
    answer = (res) => res.writeHead(204).end();
    const empty = await post(f, `http://127.0.0.1:${port}/x`);
    expect([empty.status, empty.body]).toEqual([204, null]);
    answer = (res) => res.writeHead(200).end("ok");
  });

  it("rejects with an AbortError when its signal is aborted", async () => {
    answer = () => {}; // never answers
    const signal = AbortSignal.timeout(50);
    const e = await f(`http://127.0.0.1:${port}/slow`, { method: "POST", body: "x", signal }).catch((err: unknown) => err);
    expect((e as Error).name).toBe("AbortError");
    answer = (res) => res.writeHead(200).end("ok");
  });
});
