/**
 * @module events/data-event
 * The data of a `data_event` record as the contract fixes it: `name`, `event`,
 * `variation`, `fire_at`, `context_ref`, `tags`, `expires_at`. A data event expires two
 * years after it fired unless it carries its own expiry; each action that ran for it adds
 * one tag, and removing that tag makes the action run again.
 */
import { badRequest } from "../errors.js";
import { formatTimestamp, parseTimestamp } from "../time.js";
import { EVENT_CATALOGUE } from "./catalogue.js";
import { parseTriggerName } from "./trigger-names.js";
import type { Catalogue } from "./types.js";

/** The resource type of data event records. */
export const DATA_EVENT_TYPE = "data_event";

/**
 * What a store keeps one data event per flock by (the "event exists" conflict of `apply`):
 * the JSON text of a data event's string `dedupe_key`; null for any other record, whose
 * `dedupe_key` field (a custom type may have one) is just a field. JSON text, so the SQL
 * adapters' column holds every key exactly (PostgreSQL text cannot hold U+0000, and neither
 * driver passes a lone surrogate on unchanged).
 *
 * @example
 * dedupeKeyText({ type: "data_event", data: { dedupe_key: "k1" } }) // '"k1"'
 */
export function dedupeKeyText(record: { type: string; data: Record<string, unknown> }): string | null {
  const key = record.type === DATA_EVENT_TYPE ? record.data.dedupe_key : undefined;
  return typeof key === "string" ? JSON.stringify(key) : null;
}

/** Default lifetime of a data event, in calendar years after its fire time (spec: two years). */
const DATA_EVENT_EXPIRY_YEARS = 2;

/** The `data` of a data_event record. */
export interface DataEventData {
  [field: string]: unknown;
  name: string;
  event: string;
  variation: string | null;
  /** Timestamp (spec format). */
  fire_at: string;
  /** URI of the record the event is about; null for events about no record (a login, the daily summary). */
  context_ref: string | null;
  /** One entry per action that ran for it (see `actionTag`). */
  tags: string[];
  /** Timestamp after which the event may be purged. */
  expires_at: string;
}

/** What `buildDataEvent` needs. */
export interface DataEventInput {
  /** The trigger name, checked against the catalogue. */
  name: string;
  fireAt: Date;
  contextUri: string | null;
  /** A custom expiry; must be after `fireAt`. Default: `fireAt` plus two years. */
  expiresAt?: Date;
  tags?: readonly string[];
  catalogue?: Catalogue;
}

/**
 * The data of a new data_event record. Throws `bad_request` for an unknown trigger name
 * or an expiry that is not after the fire time.
 *
 * @example
 * buildDataEvent({ name: "lapsed_90d", fireAt: new Date("2026-06-01T00:00:00Z"), contextUri: "/demo/member/…/" })
 * // { name: "lapsed_90d", event: "lapsed", variation: "90d", fire_at: "2026-06-01T00:00:00.000000",
 * //   context_ref: "/demo/member/…/", tags: [], expires_at: "2028-06-01T00:00:00.000000" }
 */
export function buildDataEvent(input: DataEventInput): DataEventData {
  const parsed = parseTriggerName(input.name, input.catalogue ?? EVENT_CATALOGUE);
  const expires = input.expiresAt ?? defaultExpiry(input.fireAt);
  if (expires.getTime() <= input.fireAt.getTime()) {
    throw badRequest(
      "invalid expiry",
      `expires_at ${formatTimestamp(expires)} must be after fire_at ${formatTimestamp(input.fireAt)}`,
    );
  }
  return {
    name: parsed.name,
    event: parsed.event,
    variation: parsed.variation,
    fire_at: formatTimestamp(input.fireAt),
    context_ref: input.contextUri,
    tags: [...new Set(input.tags ?? [])],
    expires_at: formatTimestamp(expires),
  };
}

/**
 * Two calendar years after `fireAt`, same time of day; 29 February becomes 28 February.
 *
 * @example
 * defaultExpiry(new Date("2028-02-29T12:00:00Z")) // 2030-02-28T12:00:00.000Z
 */
export function defaultExpiry(fireAt: Date): Date {
  const d = new Date(fireAt.getTime());
  const month = d.getUTCMonth();
  d.setUTCFullYear(d.getUTCFullYear() + DATA_EVENT_EXPIRY_YEARS);
  if (d.getUTCMonth() !== month) d.setUTCDate(0); // rolled into March: back to the last day of February
  return d;
}

/**
 * True when the data event's `expires_at` is at or before `now`. An unset or unreadable
 * expiry never expires: purging must not delete what it cannot read.
 */
export function isDataEventExpired(data: Readonly<Record<string, unknown>>, now: Date): boolean {
  const v = data.expires_at;
  const at = typeof v === "string" ? parseTimestamp(v) : undefined;
  return at !== undefined && at.getTime() <= now.getTime();
}

/**
 * The tag an action adds to a data event when it succeeds: the action's name. A trigger
 * has at most one action of each type, so the name is unique within one event.
 */
export function actionTag(action: string): string {
  return action;
}

/** True when `action` already ran successfully for the data event (its tag is present). */
export function hasActionRun(data: Readonly<Record<string, unknown>>, action: string): boolean {
  const tags = data.tags;
  return Array.isArray(tags) && tags.includes(actionTag(action));
}

/** The data event's tags with `action`'s tag added once. */
export function tagsWithAction(data: Readonly<Record<string, unknown>>, action: string): string[] {
  const tags = Array.isArray(data.tags) ? data.tags.filter((t): t is string => typeof t === "string") : [];
  return tags.includes(actionTag(action)) ? tags : [...tags, actionTag(action)];
}
