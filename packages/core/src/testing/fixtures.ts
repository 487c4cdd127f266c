/**
 * @module testing/fixtures
 * Builders shared by the Storage conformance suite: deterministic ids and timestamps,
 * records, filters and queries.
 */
import { META_FIELDS, type Filter, type FilterValue, type ListQuery, type Modifier } from "../model/query.js";
import type { OutboxJob } from "../model/outbox.js";
import type { StoredRecord } from "../model/record.js";
import type { JobClaim } from "../storage/job-queue.js";
import type { Storage } from "../storage/storage.js";

/** The two flocks every record test uses. */
export const F1 = "f1";
export const F2 = "f2";

/** A 24-hex record id, distinct per `n` and per `prefix` letter. */
export function testId(n: number, prefix = "a"): string {
  return prefix + n.toString(16).padStart(23, "0");
}

/** A timestamp in the record format, `n` seconds after a fixed start. */
export function stamp(n: number): string {
  const pad = (v: number) => String(v).padStart(2, "0");
  return `2026-01-01T${pad(Math.floor(n / 3600))}:${pad(Math.floor(n / 60) % 60)}:${pad(n % 60)}.000000`;
}

/** A stored record numbered `n` (id, timestamps and display value follow from `n`). */
export function rec(n: number, data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: testId(n),
    flock: F1,
    type: "thing",
    state: "updated",
    data,
    displayValue: `record ${n}`,
    created: stamp(n),
    lastUpdated: stamp(n),
    version: 1,
    ...over,
  };
}

/** A pending webhook job of `event`'s (id and delivery id `testId(n, "c")`), due at `stamp(0)`. */
export function pendingJob(event: StoredRecord, n = 1): OutboxJob {
  return {
    id: testId(n, "c"), flock: event.flock, dataEventId: event.id, trigger: "x", action: "send-json-webhook", deliveryId: testId(n, "c"),
    status: "pending", attempts: 0, nextAttemptAt: stamp(0), firstAttemptAt: null, lastError: null, lastStatus: null, body: null, created: stamp(0),
  };
}

/** A pending job numbered `n`, due at `stamp(due)`. */
export function job(n: number, due: number, over: Partial<OutboxJob> = {}): OutboxJob {
  return {
    id: testId(n, "c"),
    flock: F1,
    dataEventId: testId(n, "e"),
    trigger: "contact_created",
    action: "send-json-webhook",
    deliveryId: testId(n, "c"),
    status: "pending",
    attempts: 0,
    nextAttemptAt: stamp(due),
    firstAttemptAt: null,
    lastError: null,
    lastStatus: null,
    body: null,
    created: stamp(0),
    claimedUntil: null,
    ...over,
  };
}

/** A claim numbered `n` lapsing at `stamp(until)`. */
export function claim(n: number, until = 10_000): JobClaim {
  return { token: `claim-token-${String(n).padStart(8, "0")}`, until: stamp(until) };
}

/** A filter value as the parser would build it: `number` only for decimal number text. */
function fv(text: string): FilterValue {
  return /^-?\d+(\.\d+)?$/.test(text) ? { text, number: Number(text) } : { text };
}

/** One filter; `id`, `created` and `last_updated` are meta fields. */
export function flt(field: string, op: Modifier, ...texts: string[]): Filter {
  return { field, meta: (META_FIELDS as readonly string[]).includes(field), op, values: texts.map(fv) };
}

/** A list query over `filters` (AND, live records, one page of 100 unless overridden). */
export function query(filters: Filter[], over: Partial<ListQuery> = {}): ListQuery {
  return { filters, mode: "AND", states: ["updated"], page: 1, pageSize: 100, ...over };
}

/** Creates the flocks the record tests use. */
export async function seedFlocks(storage: Storage): Promise<void> {
  for (const identifier of [F1, F2]) {
    await storage.createFlock({ identifier, name: identifier.toUpperCase(), created: stamp(0) });
  }
}

/** Inserts `records` in one change set, in order. */
export async function insertAll(storage: Storage, records: StoredRecord[]): Promise<void> {
  await storage.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
}

/** The ids of `records`, in their order. */
export function idsOf(records: readonly StoredRecord[]): string[] {
  return records.map((r) => r.id);
}
