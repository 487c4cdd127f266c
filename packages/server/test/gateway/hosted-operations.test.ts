/**
 * Issue 21, point 8: the list of the hosted service's 80 gateway operations
 * (gateway/hosted-operations) against the app's routes and against docs/hosted-compat.md.
 * A gateway route added or removed without the list changing fails, and every failure names
 * the operation that is out of step.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  GATEWAY_EXTRA_ROUTES,
  GATEWAY_PREFIXES,
  HOSTED_OPERATIONS,
  hostedOperationRow,
  routeShape,
  type HostedOperation,
} from "../../src/gateway/hosted-operations.js";
import { SYNC_PARTNERS } from "../../src/routes/not-offered.js";
import { createTestApp, KEYS, type TestApp } from "../helpers/app.js";

const DOCS = fileURLToPath(new URL("../../../../docs/hosted-compat.md", import.meta.url));
const name = (op: HostedOperation) => `#${op.n} ${op.method} ${op.hosted}`;

/** A concrete path for a hosted path: the flock `alpha`, other parameters an unknown id. */
function samplePath(op: HostedOperation): string {
  return op.hosted.replace(/\{(\w+)\}/g, (_, p: string) => (p === "bucket" ? "alpha" : p === "partner" ? SYNC_PARTNERS[0]! : "0".repeat(24)));
}

describe("the hosted gateway operations list", () => {
  let t: TestApp;
  let routes: Set<string>;
  beforeAll(async () => {
    t = await createTestApp();
    routes = new Set(t.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${routeShape(r.path)}`));
  });

  it("has the 80 operations once each, numbered in order, with a route for each served or 501 one", () => {
    expect(HOSTED_OPERATIONS.map((op) => op.n)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    expect(new Set(HOSTED_OPERATIONS.map((op) => `${op.method} ${op.hosted}`)).size).toBe(80);
    const malformed = HOSTED_OPERATIONS.filter((op) => (op.status === "planned" ? op.ours !== undefined || op.target === undefined : op.ours === undefined || op.target !== undefined));
    expect(malformed.map(name)).toEqual([]);
  });

  it("serves every operation it lists as served or 501, by the route it names", () => {
    const missing = HOSTED_OPERATIONS.filter((op) => op.status !== "planned" && !routes.has(`${op.method} ${routeShape(op.ours!)}`)).map(
      (op) => `${name(op)} is listed ${op.status} as ${op.ours}, but the app has no ${op.method} route of that shape: serve it, or list it planned`,
    );
    expect(missing).toEqual([]);
  });

  it("answers every planned operation as today: a route-level 404 (no such path)", async () => {
    const answered: string[] = [];
    for (const op of HOSTED_OPERATIONS.filter((o) => o.status === "planned")) {
      const res = await t.call(op.method, samplePath(op), { key: KEYS.admin });
      const body = (await res.json()) as { description?: string };
      if (res.status !== 404 || !String(body.description).startsWith("no such path")) {
        answered.push(`${name(op)} is listed planned, but ${op.method} ${samplePath(op)} answers ${res.status}: list it served (or 501) with its route`);
      }
    }
    expect(answered).toEqual([]);
  });

  it("lists every route on a gateway surface as one of the 80 or as an extra, and serves every extra", () => {
    const known = new Set([
      ...HOSTED_OPERATIONS.filter((op) => op.ours).map((op) => `${op.method} ${routeShape(op.ours!)}`),
      ...GATEWAY_EXTRA_ROUTES.map((e) => `${e.method} ${routeShape(e.ours)}`),
    ]);
    const unlisted = t.app.routes
      .filter((r) => r.method !== "ALL" && GATEWAY_PREFIXES.some((p) => `${r.path}/`.startsWith(p)))
      .filter((r) => !known.has(`${r.method} ${routeShape(r.path)}`))
      .map((r) => `${r.method} ${r.path} is served on a gateway surface but is neither one of the 80 hosted operations nor a listed extra`);
    expect([...new Set(unlisted)]).toEqual([]);
    const unserved = GATEWAY_EXTRA_ROUTES.filter((e) => !routes.has(`${e.method} ${routeShape(e.ours)}`)).map((e) => `extra ${e.method} ${e.ours} is listed but not served`);
    expect(unserved).toEqual([]);
  });

  it("answers each 501 operation with the v2 error body of type not_implemented, after its auth checks", async () => {
    const wrong: string[] = [];
    for (const op of HOSTED_OPERATIONS.filter((o) => o.status === "501")) {
      const open = op.hosted.startsWith("/public/");
      // Positive control first: the right caller reaches the 501.
      const res = await t.call(op.method, samplePath(op), open ? {} : { key: KEYS.admin });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 501 || body["type"] !== "not_implemented" || body["error"] !== body["title"] || typeof body["description"] !== "string") {
        wrong.push(`${name(op)}: ${res.status} ${JSON.stringify(body)}`);
      }
      if (open) continue;
      const anonymous = await t.call(op.method, samplePath(op));
      if (anonymous.status !== 401) wrong.push(`${name(op)} without a key: ${anonymous.status}`);
      const member = await t.call(op.method, samplePath(op), { key: KEYS.member });
      if (member.status !== 403) wrong.push(`${name(op)} with a member token: ${member.status}`);
      // Another flock's key (for the warehouse, which has no flock: a key that is not an administrator's).
      const stranger = await t.call(op.method, samplePath(op), { key: KEYS.bob });
      if (stranger.status !== 403) wrong.push(`${name(op)} with another flock's key: ${stranger.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("is the table of docs/hosted-compat.md, row for row", () => {
    const rows = new Map<number, string>();
    for (const line of readFileSync(DOCS, "utf8").split("\n")) {
      const m = /^\| (\d+) \| (GET|POST|PUT|DELETE) \|/.exec(line);
      if (m) rows.set(Number(m[1]), line.trimEnd());
    }
    const differ = HOSTED_OPERATIONS.filter((op) => rows.get(op.n) !== hostedOperationRow(op)).map(
      (op) => `${name(op)}: docs/hosted-compat.md has ${JSON.stringify(rows.get(op.n) ?? "no row")}, the list gives ${JSON.stringify(hostedOperationRow(op))}`,
    );
    expect(differ).toEqual([]);
    expect([...rows.keys()].filter((n) => !HOSTED_OPERATIONS.some((op) => op.n === n))).toEqual([]);
  });

  it("refuses a sync partner the hosted service does not name with a 404, after auth", async () => {
    expect((await t.call("POST", "/internal/v2/alpha/sync/xero/push/invoice", { key: KEYS.alice })).status).toBe(501);
    const res = await t.call("POST", "/internal/v2/alpha/sync/acme/push/invoice", { key: KEYS.alice });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: "unknown partner", type: "not_found" });
    expect((await t.call("POST", "/internal/v2/alpha/sync/acme/push/invoice")).status).toBe(401);
    expect((await t.call("GET", "/public/v2/ghost/web")).status).toBe(404);
  });

  it("routeShape compares patterns by shape, so the checks above can fail", () => {
    expect(routeShape("/events/v2/:flock/booking/:uid/")).toBe(routeShape("/events/v2/:bucket/booking/:id"));
    expect(routeShape("/events/v2/:flock/booking/:uid")).not.toBe(routeShape("/events/v2/:flock/bookings/:uid"));
    expect(routes.has(`GET ${routeShape("/search/v2/:x/person")}`)).toBe(true);
    expect(routes.has(`GET ${routeShape("/search/v2/:x/nothing")}`)).toBe(false);
  });
});
