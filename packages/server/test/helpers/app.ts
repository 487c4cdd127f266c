/**
 * @module test/helpers/app
 * A ready HTTP app for tests: memory (or any) storage, a fake clock, sequential ids, two
 * flocks (`alpha`, `beta`) and one key per kind of caller. Keys are written straight into
 * storage so suites do not pay for scrypt on every setup; the auth suite logs in for real.
 */
import {
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  formatTimestamp,
  type RecordEngine,
  type Storage,
  type TriggerConfig,
} from "@records-service/core";
import type { Hono } from "hono";
import { createApp, type AppOptions } from "../../src/app.js";
import type { SettingsInput } from "../../src/settings.js";
import { hashPassword } from "../../src/auth/passwords.js";
import { hashToken } from "../../src/auth/tokens.js";
import type { AppEnv } from "../../src/http/env.js";

/** The fixed keys of the test callers (64 hex characters, like real keys). */
export const KEYS = {
  /** `admin`: every flock (`"*"`). */
  admin: "a".repeat(64),
  /** `alice`: flock alpha only. */
  alice: "b".repeat(64),
  /** `bob`: flock beta only. */
  bob: "c".repeat(64),
  /** `member@example.org`: a self-service (member) account of alpha, stored as `alpha member@example.org`. */
  member: "d".repeat(64),
  /** `carol`: alpha and a flock that does not exist (`ghost`). */
  carol: "e".repeat(64),
  /** a key of alice that has expired. */
  expired: "f".repeat(64),
} as const;

/** The password of every test user. */
export const PASSWORD = "correct horse battery staple";

/**
 * A cheap scrypt cost for suites that are not about hashing (the shipped default, N = 2^17,
 * takes about a third of a second per hash); `passwords.test.ts` pins the default.
 */
export const TEST_PASSWORD_COST = { N: 16, r: 1, p: 1 } as const;

export interface TestApp {
  app: Hono<AppEnv>;
  engine: RecordEngine;
  storage: Storage;
  clock: ReturnType<typeof createFakeClock>;
  /** Log lines the app wrote. */
  logs: Record<string, unknown>[];
  /** Sends a request; `key` adds the Bearer header, `json` a JSON body. */
  call(method: string, path: string, opts?: CallOptions): Promise<Response>;
}

export interface CallOptions {
  key?: string;
  json?: unknown;
  body?: RequestInit["body"];
  headers?: Record<string, string>;
}

/**
 * Builds the app with flocks alpha and beta and the users behind `KEYS`.
 *
 * @example
 * const t = await createTestApp();
 * const res = await t.call("GET", "/api/v1/", { key: KEYS.alice });
 */
export async function createTestApp(
  opts: {
    storage?: Storage;
    triggers?: readonly TriggerConfig[];
    /** Some settings (the rest from config/schema's defaults). */
    settings?: SettingsInput;
    changes?: AppOptions["changes"];
    flockResourceTypes?: Record<string, string[]>;
    /** Builds the metrics over this app's storage and clock (see `createServiceMetrics`). */
    metrics?: (storage: Storage, clock: ReturnType<typeof createFakeClock>) => AppOptions["metrics"];
    workers?: () => readonly string[];
  } = {},
): Promise<TestApp> {
  const storage = opts.storage ?? createMemoryStorage();
  const clock = createFakeClock("2026-01-15T10:00:00.000Z");
  const triggers = opts.triggers ?? [];
  const engine = createRecordEngine({
    storage,
    clock,
    ids: createSequentialIds(),
    triggers: (f) => triggers.filter((t) => t.flock === f),
    ...(opts.flockResourceTypes ? { flockResourceTypes: opts.flockResourceTypes } : {}),
  });
  const now = formatTimestamp(clock.now());
  await storage.createFlock({ identifier: "alpha", name: "Alpha Society", created: now });
  await storage.createFlock({ identifier: "beta", name: "Beta Club", created: now });

  const passwordHash = await _passwordHash();
  const users = [
    { username: "admin", flocks: ["*"], role: "core", key: KEYS.admin },
    { username: "alice", flocks: ["alpha"], role: "core", key: KEYS.alice },
    { username: "bob", flocks: ["beta"], role: "core", key: KEYS.bob },
    { username: "alpha member@example.org", flocks: ["alpha"], role: "self-service", key: KEYS.member },
    { username: "carol", flocks: ["alpha", "ghost"], role: "core", key: KEYS.carol },
  ] as const;
  for (const u of users) {
    await storage.putUser({ username: u.username, passwordHash, flocks: [...u.flocks], role: u.role, created: now });
    await storage.putApiKey({ tokenHash: hashToken(u.key), username: u.username, created: now, expires: null });
  }
  await storage.putApiKey({ tokenHash: hashToken(KEYS.expired), username: "alice", created: now, expires: "2026-01-01T00:00:00.000000" });

  const logs: Record<string, unknown>[] = [];
  const app = createApp({
    engine,
    log: (line) => logs.push(line),
    passwordCost: TEST_PASSWORD_COST,
    ...(opts.settings ? { settings: opts.settings } : {}),
    ...(opts.changes ? { changes: opts.changes } : {}),
    ...(opts.metrics ? { metrics: opts.metrics(storage, clock) } : {}),
    ...(opts.workers ? { workers: opts.workers } : {}),
  });
  const call = (method: string, path: string, o: CallOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers["content-type"] ??= "application/json";
    }
    // fetch refuses a body on GET/HEAD; the suites send the same options to every method.
    if (method === "GET" || method === "HEAD") body = undefined;
    // A stream body needs `duplex` (fetch's rule); harmless for the others.
    return Promise.resolve(app.request(path, { method, headers, body, duplex: "half" } as RequestInit));
  };
  return { app, engine, storage, clock, logs, call };
}

/** Creates a record through the engine and returns its id. */
export async function seed(t: TestApp, flock: string, type: string, data: Record<string, unknown>): Promise<string> {
  return (await t.engine.create(flock, type, data)).id;
}

// --- internal ---

let _hash: Promise<string> | undefined;

/** One hash per test file, at the test cost (the app rehashes nothing: the costs agree). */
function _passwordHash(): Promise<string> {
  _hash ??= hashPassword(PASSWORD, TEST_PASSWORD_COST);
  return _hash;
}
