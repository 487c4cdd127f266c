/**
 * @module test/helpers/v2-app
 * The test app of helpers/app.ts (flocks alpha and beta, the `KEYS` callers, fake clock,
 * sequential ids) with the v2 options set: a known card secret, a throttle limit, login
 * guard limits. Also seeds the people, members and reservations the v2 suites share.
 */
import type { Hono } from "hono";
import { createApp, type AppOptions } from "../../src/app.js";
import type { AppEnv } from "../../src/http/env.js";
import { createTestApp, TEST_PASSWORD_COST, type CallOptions, type TestApp } from "./app.js";

/** The card secret of the v2 test app. */
export const SECRET = "test-secret-0123456789abcdef";
/** What every v2 test call sends unless it says otherwise, so suites not about throttling are not throttled. */
const APP_HEADER = { application: "Tests/records-service/1" } as const;

export type V2TestApp = TestApp;

/**
 * The v2 test app. `options` override createApp's (the engine is the test app's);
 * `call` adds the APPLICATION header unless `headers.application` is set (`""` sends none);
 * `setup` goes to createTestApp (extra resource types per flock, for instance).
 */
export async function createV2TestApp(options: Partial<Omit<AppOptions, "engine">> = {}, setup: Parameters<typeof createTestApp>[0] = {}): Promise<V2TestApp> {
  const t = await createTestApp(setup);
  const app: Hono<AppEnv> = createApp({
    engine: t.engine,
    secret: SECRET,
    log: (line) => t.logs.push(line),
    passwordCost: TEST_PASSWORD_COST,
    ...options,
  });
  const call = (method: string, path: string, o: CallOptions = {}) => {
    const headers: Record<string, string> = { ...APP_HEADER, ...o.headers };
    if (headers.application === "") delete headers.application;
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers["content-type"] ??= "application/json";
    }
    if (method === "GET" || method === "HEAD") body = undefined;
    return Promise.resolve(app.request(path, { method, headers, body }));
  };
  return { ...t, app, call };
}

/** Ids of the records `seedPeople` creates in flock alpha. */
export interface SeededPeople {
  /** Ada, email `Member@Example.org;home` (the self-service user `member@example.org`). */
  ada: string;
  /** Grace, another person. */
  grace: string;
  /** A member record referencing Ada. */
  adaMember: string;
  /** A member record referencing Grace. */
  graceMember: string;
}

/** People and member records in flock alpha. */
export async function seedPeople(t: TestApp): Promise<SeededPeople> {
  const ada = (await t.engine.create("alpha", "person", { first_name: "Ada", last_name: "Lovelace", email: ["Member@Example.org;home"] })).id;
  const grace = (await t.engine.create("alpha", "person", { first_name: "Grace", last_name: "Hopper", email: ["grace@example.org"] })).id;
  const member = (person: string, number: string) =>
    t.engine.create("alpha", "member", {
      member: `/alpha/person/${person}/`,
      membership_number: number,
      membership_type: "Annual",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
    });
  return { ada, grace, adaMember: (await member(ada, "M-0001")).id, graceMember: (await member(grace, "M-0002")).id };
}

/** Sends a request without an APPLICATION header. */
export function unattributed(o: CallOptions = {}): CallOptions {
  return { ...o, headers: { ...o.headers, application: "" } };
}
