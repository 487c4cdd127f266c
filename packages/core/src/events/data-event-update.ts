/**
 * @module events/data-event-update
 * What a client may change on a data event: its `tags` (removing an action's tag runs the
 * action again), its `expires_at`, and fields of its own. What the event is (its trigger,
 * fire time, record and dedupe key) is the service's record of what happened: read-only.
 */
import { badRequest } from "../errors.js";
import { sameJson } from "../records/revise.js";
import { formatTimestamp, parseTimestamp } from "../time.js";

/** The data event fields only the service writes. */
const DATA_EVENT_READ_ONLY: readonly string[] = ["name", "event", "variation", "fire_at", "context_ref", "dedupe_key"];

/**
 * Throws 400 unless `patch` (validated fields, undefined ones left out) is an allowed update
 * of a data event whose stored data is `before`: read-only fields unchanged (sending their
 * current value is fine), `tags` a list of texts or null, `expires_at` a timestamp not
 * before `fire_at`.
 *
 * @example
 * checkDataEventUpdate(event.data, { tags: [] }) // fine
 * checkDataEventUpdate(event.data, { name: "lapsed_1d" }) // throws bad_request "read-only fields"
 */
export function checkDataEventUpdate(before: Readonly<Record<string, unknown>>, patch: Readonly<Record<string, unknown>>): void {
  const changed = DATA_EVENT_READ_ONLY.filter((k) => k in patch && !sameJson(patch[k], before[k] ?? null));
  if (changed.length) {
    throw badRequest("read-only fields", `${changed.join(", ")} of a data_event are written by the service and cannot be changed`);
  }
  if ("tags" in patch) {
    const tags = patch.tags;
    if (tags !== null && !(Array.isArray(tags) && tags.every((t) => typeof t === "string"))) {
      throw badRequest("invalid tags", "tags of a data_event must be a list of texts (or null)");
    }
  }
  if ("expires_at" in patch) {
    const raw = patch.expires_at;
    const expires = typeof raw === "string" ? parseTimestamp(raw) : undefined;
    if (!expires) {
      throw badRequest("invalid expires_at", `expires_at must be a timestamp (YYYY-MM-DDTHH:MM:SS), not ${JSON.stringify(raw)?.slice(0, 60)}`);
    }
    const fire = typeof before.fire_at === "string" ? parseTimestamp(before.fire_at) : undefined;
    if (fire && expires.getTime() < fire.getTime()) {
      throw badRequest("invalid expires_at", `expires_at ${formatTimestamp(expires)} is before the event's fire_at ${formatTimestamp(fire)}`);
    }
  }
}
