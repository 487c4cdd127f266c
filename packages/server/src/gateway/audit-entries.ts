/**
 * @module gateway/audit-entries
 * The hosted shape of a record's audit entries (spec v2-gateway section 0): beside today's
 * fields, `{date, message, uri, user, revertable, resource, clean_diff}`. `user` is the
 * actor's person URI where the actor is a member account of the flock whose person is found,
 * else the account name (a member account's email, a staff username), else null.
 *
 * The change log keeps which fields each write changed, not their values. So `clean_diff`
 * gives, per changed field, the value after the write where it is still the record's value
 * (no later kept write touched the field, and every later write is kept), else null; `prev`
 * is null because previous values are not kept, and so `revertable` is false
 * (docs/decisions.md, "Audit clean_diff").
 */
import type { AuditEntry, RecordHistory, StoredRecord } from "@records-service/core";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import type { RouteEngine } from "../http/route-engine.js";

/** One `clean_diff` item. */
interface CleanDiff {
  field: string;
  prev: string | null;
  value: string | null;
  verb: "change" | "add" | "drop";
}

/** An audit entry with the hosted fields beside today's. */
export type HostedAuditEntry = Omit<AuditEntry, "user"> & {
  date: string;
  message: string;
  user: string | null;
  revertable: boolean;
  resource: string;
  clean_diff: CleanDiff[];
};

/**
 * `history` with each result in the hosted shape; `record` is the record it is about.
 *
 * @example
 * await hostedHistory(engine, record, history)
 * // results[0]: { date, message: "Ada Lovelace changed last_name", user: "/demo/person/…/", clean_diff: [{ field: "last_name", ... }], ... }
 */
export async function hostedHistory(
  engine: RouteEngine,
  record: StoredRecord,
  history: RecordHistory,
): Promise<Omit<RecordHistory, "results"> & { results: HostedAuditEntry[] }> {
  const actors = await _actors(engine, record.flock, history.results);
  const values = _knownValues(record, history.results);
  const results = history.results.map((entry, i) => {
    const actor = entry.user === null ? undefined : actors.get(entry.user);
    const diff = _cleanDiff(entry, values[i]!);
    return {
      ...entry,
      date: entry.when,
      message: _message(entry, record.type, actor?.name ?? null),
      user: actor?.ref ?? null,
      revertable: false,
      resource: record.type,
      clean_diff: diff,
    };
  });
  return { ...history, results };
}

// --- internal ---

/** Text of a value as the hosted diff writes it (null for none). */
function _text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(", ");
  return JSON.stringify(value);
}

/**
 * Per result: the field values after that write that are known (the record's current
 * values of fields no later kept write changed, while the kept writes reach back to it
 * without a gap in versions).
 */
function _knownValues(record: StoredRecord, results: readonly AuditEntry[]): Map<string, unknown>[] {
  const out: Map<string, unknown>[] = results.map(() => new Map());
  const writes = results
    .map((entry, i) => ({ entry, i }))
    .filter(({ entry }) => entry.action !== "event" && entry.version !== null && entry.changed_fields !== null)
    .sort((a, b) => b.entry.version! - a.entry.version!);
  const touched = new Set<string>();
  let expected = record.version;
  for (const { entry, i } of writes) {
    if (entry.version !== expected) break;
    for (const field of entry.changed_fields!) if (!touched.has(field)) out[i]!.set(field, record.data[field]);
    for (const field of entry.changed_fields!) touched.add(field);
    expected = entry.version - 1;
  }
  return out;
}

function _cleanDiff(entry: AuditEntry, known: Map<string, unknown>): CleanDiff[] {
  if (entry.action === "event" || entry.changed_fields === null) return [];
  return entry.changed_fields.map((field) => {
    const value = known.has(field) ? _text(known.get(field)) : null;
    const verb = entry.action === "created" ? "add" : known.has(field) && value === null ? "drop" : "change";
    return { field, prev: null, value, verb };
  });
}

function _message(entry: AuditEntry, type: string, who: string | null): string {
  const name = who ?? (entry.user === null ? "The service" : entry.user);
  switch (entry.action) {
    case "created":
      return `${name} created this ${type}`;
    case "deleted":
      return `${name} deleted this ${type}`;
    case "restored":
      return `${name} restored this ${type}`;
    case "event":
      return `event ${entry.event ?? "(unnamed)"}`;
    default: {
      const fields = entry.changed_fields ?? [];
      return fields.length === 0 ? `${name} updated this ${type}` : `${name} changed ${_list(fields)}`;
    }
  }
}

function _list(fields: readonly string[]): string {
  const shown = fields.slice(0, 5);
  const more = fields.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/** Each distinct actor of the entries: its name for messages and its `user` value. */
async function _actors(engine: RouteEngine, flock: string, entries: readonly AuditEntry[]): Promise<Map<string, { name: string; ref: string }>> {
  const out = new Map<string, { name: string; ref: string }>();
  for (const actor of new Set(entries.map((e) => e.user).filter((u): u is string => u !== null))) {
    const email = accountEmail(actor);
    const memberOfFlock = actor.startsWith(`${flock} `);
    const person = memberOfFlock ? await findCallerPerson(engine, flock, email) : undefined;
    out.set(actor, person ? { name: person.displayValue, ref: `/${flock}/person/${person.id}/` } : { name: email, ref: email });
  }
  return out;
}
