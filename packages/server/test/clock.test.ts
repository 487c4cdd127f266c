/**
 * The manual clock (emulator mode) through HTTP on a real server: reading it, moving it
 * forward (never back), admin keys only, 404 without `--clock manual`, and the issue's
 * scenario: a membership ending in 20 days and an `expiring_2wk` webhook; advance 6 days →
 * the webhook arrives once; 1 more → nothing new. Retries falling due on the way are run.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createManualClock } from "../src/clock/manual-clock.js";
import { parseConfig } from "../src/config.js";
import { startServer, type RunningServer } from "../src/runtime.js";
import { TEST_PASSWORD_COST } from "./helpers/app.js";

const PASSWORD = "clock test password";
const APP = { application: "Tests/clock/1" };
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** A webhook receiver that answers each delivery with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []): Promise<{ url: string; got: { trigger: string; id: string }[] }> {
  const got: { trigger: string; id: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const status = statuses.shift() ?? 200;
      if (status === 200) got.push({ trigger: JSON.parse(body).trigger, id: String(req.headers["webhook-id"]) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  open.push({ close: () => new Promise((r) => server.close(r)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

async function serve(opts: { manual: boolean; hook?: string; perMinute?: number }): Promise<{
  server: RunningServer;
  call: (method: string, path: string, body?: unknown, who?: "admin" | "staff") => Promise<Response>;
  keys: Record<string, string>;
}> {
  const server = await startServer({
    db: ":memory:",
    host: "127.0.0.1",
    port: 0,
    passwordCost: TEST_PASSWORD_COST,
    ...(opts.manual ? { clock: createManualClock(new Date("2026-01-01T00:00:00Z")) } : {}),
    config: parseConfig({
      flocks: [{ identifier: "demo" }],
      users: [
        { username: "admin", password: PASSWORD, flocks: ["*"] },
        { username: "staff", password: PASSWORD, flocks: ["demo"] },
      ],
      webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 60_000, retryWindowHours: 168 },
      ...(opts.perMinute ? { throttle: { unattributedPerMinute: opts.perMinute } } : {}),
      triggers: opts.hook ? [{ flock: "demo", trigger: "expiring_2wk", action: "send-json-webhook", url: opts.hook }] : [],
    }),
  });
  open.push(server);
  const keys: Record<string, string> = {};
  for (const who of ["admin", "staff"]) {
    const res = await fetch(`${server.url}/api/v1/auth/`, { method: "POST", headers: { ...APP, "content-type": "application/json" }, body: JSON.stringify({ username: who, password: PASSWORD }) });
    keys[who] = ((await res.json()) as { api_key: string }).api_key;
  }
  const call = (method: string, path: string, body?: unknown, who: "admin" | "staff" = "admin") =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...APP, authorization: `Bearer ${keys[who]}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { server, call, keys };
}

describe("the manual clock", () => {
  it("a membership ending in 20 days: advance 6 days → the expiring_2wk webhook once; 1 more → nothing new", async () => {
    const hook = await receiver();
    const { call } = await serve({ manual: true, hook: hook.url });
    expect(await (await call("GET", "/api/v1/_clock/")).json()).toEqual({ now: "2026-01-01T00:00:00.000000" });
    const person = (await (await call("POST", "/api/v1/demo/person/", { first_name: "Ada" })).json()) as { uri: string; meta: { created: string } };
    // Record timestamps read the service's clock.
    expect(person.meta.created).toBe("2026-01-01T00:00:00.000000");
    const created = await call("POST", "/api/v1/demo/membership/", { member: person.uri, start_date: "2025-01-21", end_date: "2026-01-21", auto_renew: false });
    expect(created.status).toBe(201);

    const six = await call("POST", "/api/v1/_clock/advance/", { days: 6 });
    expect(six.status).toBe(200);
    expect(await six.json()).toEqual({ now: "2026-01-07T00:00:00.000000", fired: { expiring_2wk: 1 } });
    // Delivered before the answer came back.
    expect(hook.got.map((d) => d.trigger)).toEqual(["expiring_2wk"]);

    const one = await call("POST", "/api/v1/_clock/advance/", { days: 1 });
    expect(await one.json()).toEqual({ now: "2026-01-08T00:00:00.000000", fired: {} });
    expect(hook.got).toHaveLength(1);

    // The data event carries the service's time.
    const events = (await (await call("GET", "/api/v1/demo/data_event/?name=expiring_2wk")).json()) as { results: { data: { fire_at: string } }[] };
    expect(events.results.map((e) => e.data.fire_at)).toEqual(["2026-01-07T00:00:00.000000"]);
  });

  it("runs a retry that falls due on the way, at its time", async () => {
    const hook = await receiver([500]);
    const { call } = await serve({ manual: true, hook: hook.url });
    const person = (await (await call("POST", "/api/v1/demo/person/", { first_name: "Ada" })).json()) as { uri: string };
    await call("POST", "/api/v1/demo/membership/", { member: person.uri, end_date: "2026-01-16", auto_renew: false });
    // expiring_2wk falls due at 2026-01-02T00:00: the first attempt fails (500).
    const first = await call("POST", "/api/v1/_clock/advance/", { to: "2026-01-02T00:00:01Z" });
    expect(await first.json()).toEqual({ now: "2026-01-02T00:00:01.000000", fired: { expiring_2wk: 1 } });
    expect(hook.got).toEqual([]);
    // The retry (about a minute later) runs during the next advance.
    expect(await (await call("POST", "/api/v1/_clock/advance/", { seconds: 3600 })).json()).toEqual({ now: "2026-01-02T01:00:01.000000", fired: {} });
    expect(hook.got.map((d) => d.trigger)).toEqual(["expiring_2wk"]);
  });

  it("moves session expiry and throttle windows too", async () => {
    const { server, call, keys } = await serve({ manual: true, perMinute: 2 });
    // A member's session lasts 24 hours of the service's time.
    await call("POST", "/api/v1/demo/person/", { first_name: "Ada", email: ["ada@example.org;home"] });
    expect((await call("POST", "/api/v1/demo/user/", { email: "ada@example.org", password: "member password 1" })).status).toBe(201);
    const login = await fetch(`${server.url}/api/v1/demo/user/auth/`, { method: "POST", headers: { ...APP, "content-type": "application/json" }, body: JSON.stringify({ email: "ada@example.org", password: "member password 1" }) });
    const session = (await login.json()) as { bearer_token: string; session_expiry: string };
    expect(session.session_expiry).toBe("2026-01-02T00:00:00.000000");
    const reservations = () => fetch(`${server.url}/api/v2/selfservice/demo/reservations/`, { headers: { ...APP, authorization: `Bearer ${session.bearer_token}` } });
    expect((await reservations()).status).toBe(200);
    // Unattributed calls: 2 a minute of the service's time.
    const bare = () => fetch(`${server.url}/api/v1/`, { headers: { authorization: `Bearer ${keys.staff}` } });
    expect([(await bare()).status, (await bare()).status, (await bare()).status]).toEqual([200, 200, 429]);

    await call("POST", "/api/v1/_clock/advance/", { seconds: 61 });
    expect((await bare()).status).toBe(200);
    await call("POST", "/api/v1/_clock/advance/", { days: 1 });
    expect((await reservations()).status).toBe(401);
  });

  it("refuses a move backwards, by zero, too far or malformed (400), changing nothing", async () => {
    const { call } = await serve({ manual: true });
    const bad = [{ days: 0 }, { days: -1 }, { seconds: "5" }, { to: "2025-12-31T00:00:00Z" }, { to: "2026-01-01T00:00:00Z" }, { to: "soon" }, { days: 1, seconds: 1 }, {}, { days: 4000 }, { weeks: 1 }];
    for (const body of bad) {
      const res = await call("POST", "/api/v1/_clock/advance/", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await res.json()) as object)).toEqual(["error", "error_detail"]);
    }
    const notJson = await fetch(`${(await call("GET", "/api/v1/_clock/")).url}`.replace("/_clock/", "/_clock/advance/"), { method: "POST", headers: { ...APP }, body: "x" });
    expect(notJson.status).toBe(401);
    expect(await (await call("GET", "/api/v1/_clock/")).json()).toEqual({ now: "2026-01-01T00:00:00.000000" });
  });

  it("is for administrator keys only (403), and needs a key (401)", async () => {
    const { server, call } = await serve({ manual: true });
    expect((await call("GET", "/api/v1/_clock/", undefined, "staff")).status).toBe(403);
    expect((await call("POST", "/api/v1/_clock/advance/", { days: 1 }, "staff")).status).toBe(403);
    expect((await fetch(`${server.url}/api/v1/_clock/`, { headers: APP })).status).toBe(401);
  });

  it("answers 404 without --clock manual, whoever asks", async () => {
    const { server, call } = await serve({ manual: false });
    const res = await call("GET", "/api/v1/_clock/");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error_detail: string }).error_detail).toContain("--clock manual");
    expect((await call("POST", "/api/v1/_clock/advance/", { days: 1 })).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/_clock/`, { headers: APP })).status).toBe(404);
  });
});
