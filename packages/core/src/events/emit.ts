/**
 * @module events/emit
 * Which action-time events a set of record writes implies, decided purely from the
 * records before and after. The commit step (`records/commit.ts`) turns the plan into
 * data_event records and outbox jobs in the same transaction as the writes.
 *
 * Events derived from generic record changes (creation counts as a move from "unset"):
 *
 * | write | event |
 * |---|---|
 * | insert person, organisation | `contact_created` |
 * | insert reservation | `reservation_created` |
 * | reservation `status` moves to `cancelled` (update) | `reservation_cancelled` |
 * | member/membership `membership_record_status` moves to `cancelled` (update) | `cancelling_membership` |
 * | insert member/membership with `is_renewal` set | `renewal_confirmation` |
 * | insert ticket | `ticket_confirmation` |
 * | insert payment | one payment event, by precedence (`paymentEvent`) |
 * | insert donation, pledge | `donation_pledge` |
 * | insert form_response | `form_response_created` |
 * | form_response `status` moves to submitted, withdrawn, scoring_complete | `form_response_<status>` |
 * | achievement `status` moves to `completed`, or `completed` becomes set | `achievement_completed` |
 * | application `status` moves to accepted, rejected, submitted | `application_<status>` |
 * | insert mandate | `mandate_created` |
 * | mandate `status` moves to active, cancelled, failed, pending_customer_approval, pending_submission, submitted | `mandate_<status>` |
 *
 * Writes of data_event, core_event and journal records, and writes that leave a record
 * deleted, emit nothing. An update of a data_event that removes an action's tag asks for
 * that action to run again (`requeue`).
 */
import { formatTimestamp } from "../time.js";
import { recordUri } from "../schema/references.js";
import type { RecordWrite } from "../model/change-set.js";
import type { StoredRecord } from "../model/record.js";
import { DATA_EVENT_TYPE } from "./data-event.js";
import { isFlagSet } from "./flags.js";
import { paymentEvent } from "./payment.js";

/** Resource types whose writes never emit events: the events themselves, tasks and the journal. */
const SILENT_TYPES: readonly string[] = [DATA_EVENT_TYPE, "core_event", "journal"];

/** One event to record: a data_event, plus a job per matching active trigger. */
export interface PlannedEvent {
  flock: string;
  /** The trigger name (`contact_created`). */
  name: string;
  /** URI of the record it is about; null for none. */
  contextUri: string | null;
  /** Timestamp (spec format). */
  fireAt: string;
  /** Stored as the data event's `dedupe_key`; an event whose key is stored already is skipped by `emit`. */
  dedupeKey?: string;
  /** Custom expiry (timestamp); default two years after `fireAt`. */
  expiresAt?: string;
}

/** A data event whose action tags were removed: those actions run again. */
export interface PlannedRequeue {
  flock: string;
  dataEventId: string;
  /** The data event's trigger name. */
  trigger: string;
  /** The actions whose tags were removed. */
  actions: string[];
}

/** What a set of writes implies. */
export interface EventPlan {
  events: PlannedEvent[];
  requeue: PlannedRequeue[];
}

/**
 * The events and re-runs implied by `writes` (in write order). Updates are compared with
 * their `before`; an update without `before` emits nothing.
 *
 * @example
 * planEvents([{ kind: "insert", record: person }], new Date()).events
 * // [{ flock: "demo", name: "contact_created", contextUri: "/demo/person/…/", fireAt: "2026-…" }]
 */
export function planEvents(writes: readonly RecordWrite[], now: Date): EventPlan {
  const fireAt = formatTimestamp(now);
  const plan: EventPlan = { events: [], requeue: [] };
  for (const w of writes) {
    const after = w.record;
    const before = w.kind === "insert" ? null : w.before;
    if (before === undefined) continue;
    if (after.type === DATA_EVENT_TYPE) {
      const r = before ? _requeue(before, after) : undefined;
      if (r) plan.requeue.push(r);
      continue;
    }
    if (SILENT_TYPES.includes(after.type) || after.state === "deleted") continue;
    const uri = recordUri(after.flock, after.type, after.id);
    for (const name of recordEvents(before, after)) {
      plan.events.push({ flock: after.flock, name, contextUri: uri, fireAt });
    }
  }
  return plan;
}

/**
 * The trigger names one record write emits: `before` is null for a creation.
 *
 * @example
 * recordEvents(null, { type: "payment", data: { ticket_ref: "/demo/ticket/…/" }, ... }) // ["ticket_payment_received"]
 */
export function recordEvents(before: StoredRecord | null, after: StoredRecord): string[] {
  const created = before === null;
  const was = (field: string) => (before ? _status(before.data[field]) : null);
  const is = (field: string) => _status(after.data[field]);
  /** The status `field` moved into (a creation moves from unset), if it is one of `values`. */
  const movedInto = (field: string, values: readonly string[], onCreate: boolean): string | null => {
    if (created && !onCreate) return null;
    const now = is(field);
    return now !== null && now !== was(field) && values.includes(now) ? now : null;
  };
  const out: string[] = [];
  switch (after.type) {
    case "person":
    case "organisation":
      if (created) out.push("contact_created");
      break;
    case "reservation":
      if (created) out.push("reservation_created");
      if (movedInto("status", ["cancelled"], false)) out.push("reservation_cancelled");
      break;
    case "member":
    case "membership":
      if (created && isFlagSet(after.data.is_renewal)) out.push("renewal_confirmation");
      if (movedInto("membership_record_status", ["cancelled"], false)) out.push("cancelling_membership");
      break;
    case "ticket":
      if (created) out.push("ticket_confirmation");
      break;
    case "payment":
      if (created) out.push(paymentEvent(after.data).name);
      break;
    case "donation":
    case "pledge":
      if (created) out.push("donation_pledge");
      break;
    case "form_response": {
      if (created) out.push("form_response_created");
      const s = movedInto("status", FORM_RESPONSE_STATUSES, true);
      if (s) out.push(`form_response_${s}`);
      break;
    }
    case "achievement": {
      const byStatus = movedInto("status", ["completed"], true) !== null;
      const byFlag = isFlagSet(after.data.completed) && !(before && isFlagSet(before.data.completed));
      if (byStatus || byFlag) out.push("achievement_completed");
      break;
    }
    case "application": {
      const s = movedInto("status", APPLICATION_STATUSES, true);
      if (s) out.push(`application_${s}`);
      break;
    }
    case "mandate": {
      if (created) out.push("mandate_created");
      const s = movedInto("status", MANDATE_STATUSES, true);
      if (s && s !== "created") out.push(`mandate_${s}`);
      break;
    }
  }
  return out;
}

/** form_response statuses that are events (`form_response_<status>`). */
const FORM_RESPONSE_STATUSES: readonly string[] = ["submitted", "withdrawn", "scoring_complete"];
/** application statuses that are events (`application_<status>`). */
const APPLICATION_STATUSES: readonly string[] = ["accepted", "rejected", "submitted"];
/** mandate statuses that are events (`mandate_<status>`). */
const MANDATE_STATUSES: readonly string[] = [
  "active",
  "cancelled",
  "failed",
  "pending_customer_approval",
  "pending_submission",
  "submitted",
];

// --- internal ---

/** A status as compared: trimmed, lower-case; null when unset or not text. */
function _status(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const s = v.trim().toLowerCase();
  return s === "" ? null : s;
}

function _tags(data: Record<string, unknown>): string[] {
  return Array.isArray(data.tags) ? data.tags.filter((t): t is string => typeof t === "string") : [];
}

/** The trigger comes from `before`: a patch never decides which trigger's actions run. */
function _requeue(before: StoredRecord, after: StoredRecord): PlannedRequeue | undefined {
  if (after.state === "deleted" || typeof before.data.name !== "string") return undefined;
  const now = new Set(_tags(after.data));
  const removed = [...new Set(_tags(before.data))].filter((t) => !now.has(t));
  if (removed.length === 0) return undefined;
  return { flock: after.flock, dataEventId: after.id, trigger: before.data.name, actions: removed };
}
