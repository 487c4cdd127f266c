/**
 * @module workers/outbox-test-helpers
 * Set-up for the outbox tests: a memory Storage with flock `demo`, a fake clock,
 * sequential ids, triggers that can change during a test, and a fake `fetch` that records
 * every request and answers from a script.
 */
import {
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  formatTimestamp,
  validateTriggers,
  type Clock,
  type OutboxJob,
  type Storage,
  type TriggerConfig,
} from "@records-service/core";
import { createActionRegistry } from "../actions/registry.js";
import { createWebhookActions } from "../actions/webhook.js";
import { createOutboxRunner } from "./outbox.js";

export const SECRET = "test-secret-0123456789";
export const HOOK = "https://hooks.example.org/records";
const START = "2026-01-15T10:00:00.000Z";

/** The claim token `claimOne` uses. */
export const TEST_CLAIM = "test-claim-token-0001";

/** Claims the next due job for a minute under `TEST_CLAIM`, as the runner would. */
export async function claimOne(storage: Storage, clock: Clock): Promise<OutboxJob | undefined> {
  const now = clock.now();
  const [job] = await storage.claimDueJobs(formatTimestamp(now), 1, { token: TEST_CLAIM, until: formatTimestamp(new Date(now.getTime() + 60_000)) });
  return job;
}

/** One request the fake fetch received. */
interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** An answer of the fake fetch: a status (and headers), or an error to throw. */
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: string } | { error: Error };

/** A fake fetch answering from `script` in order (the last answer repeats). */
export function fakeFetch(script: ScriptedAnswer[]) {
  const seen: SeenRequest[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    seen.push({ url: String(input), headers, body: String(init?.body) });
    const answer = script[Math.min(seen.length - 1, script.length - 1)]!;
    if ("error" in answer) throw answer.error;
    return new Response(answer.body ?? "", { status: answer.status, ...(answer.headers ? { headers: answer.headers } : {}) });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

/** Engine, storage, clock, trigger list and a runner over a fake fetch. */
export async function outboxSetup(opts: { script?: ScriptedAnswer[]; triggers?: Record<string, unknown>[]; retryWindowHours?: number } = {}) {
  const storage = createMemoryStorage();
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
  const clock = createFakeClock(START);
  const triggers: { list: TriggerConfig[] } = {
    list: validateTriggers(opts.triggers ?? [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: HOOK }]).triggers,
  };
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: (f) => triggers.list.filter((t) => t.flock === f) });
  const { fetch, seen } = fakeFetch(opts.script ?? [{ status: 200 }]);
  const out: string[] = [];
  const abort = new AbortController();
  const runner = createOutboxRunner({
    engine,
    clock,
    secret: SECRET,
    registry: createActionRegistry(createWebhookActions({ fetch })),
    policy: { firstRetryDelayMs: 60_000, retryWindowHours: opts.retryWindowHours ?? 168 },
    random: () => 0.5,
    signal: abort.signal,
    out: (l) => out.push(l),
  });
  return { storage, clock, engine, triggers, seen, out, runner, abort };
}
