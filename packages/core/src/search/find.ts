/**
 * @module search/find
 * Find one contact by what a form knows about it, with the hosted service's matching
 * order: the first rule whose fields are all given and that matches wins. Candidates are
 * read by an indexed prefix filter on the rule's first field, then checked exactly (case,
 * accents and, for postal codes, spaces ignored).
 */
import { badRequest } from "../errors.js";
import { MAX_PAGE_SIZE } from "../query/limits.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import { parseEntry } from "../schema/list-entries.js";
import type { StoredRecord } from "../model/record.js";
import { foldText } from "./search-text.js";

/** One matching rule: its name and the fields that must all be given and all agree. */
export interface FindRule {
  name: string;
  fields: readonly string[];
}

/** Persons: email; first and last name with date of birth; ... with postal code; title and last name with postal code. */
const PERSON_FIND_RULES: readonly FindRule[] = [
  { name: "email", fields: ["email"] },
  { name: "name_and_date_of_birth", fields: ["last_name", "first_name", "date_of_birth"] },
  { name: "name_and_postal_code", fields: ["last_name", "first_name", "postal_code"] },
  { name: "title_and_postal_code", fields: ["last_name", "title", "postal_code"] },
];

/** Organisations: name with postal code; exact name; email; domain. */
const ORGANISATION_FIND_RULES: readonly FindRule[] = [
  { name: "name_and_postal_code", fields: ["name", "postal_code"] },
  { name: "name", fields: ["name"] },
  { name: "email", fields: ["email"] },
  { name: "domain", fields: ["domain"] },
];

/** The rules of each findable type. */
const FIND_RULES: Readonly<Record<string, readonly FindRule[]>> = {
  person: PERSON_FIND_RULES,
  organisation: ORGANISATION_FIND_RULES,
};

/** The most candidates one rule reads (a prefix shared by more is refused as too broad). */
const MAX_FIND_CANDIDATES = 5 * MAX_PAGE_SIZE;

/** What `findContacts` found: the rule that matched (null: none did) and its matches, earliest created first. */
export interface FindResult {
  rule: string | null;
  matches: StoredRecord[];
}

/**
 * The live `type` records matching the first rule that matches `given` (field → value).
 * 400 when no rule has all its fields given.
 *
 * @example
 * await findContacts(ctx, "demo", "person", { email: "ada@example.org" }) // { rule: "email", matches: [ada] }
 */
export async function findContacts(ctx: EngineContext, flock: string, type: string, given: Record<string, string | undefined>): Promise<FindResult> {
  const rules = FIND_RULES[type];
  if (!rules) throw badRequest("invalid find", `find answers ${Object.keys(FIND_RULES).join(" and ")}, not ${type}`);
  await requireFlockAndType(ctx, flock, type);
  const usable = rules.filter((r) => r.fields.every((f) => (given[f] ?? "").trim() !== ""));
  if (usable.length === 0) {
    const ways = rules.map((r) => r.fields.join(" + ")).join("; or ");
    throw badRequest("invalid find", `give ${ways}`);
  }
  for (const rule of usable) {
    const matches = await _matches(ctx, flock, type, rule, given);
    if (matches.length > 0) return { rule: rule.name, matches };
  }
  return { rule: null, matches: [] };
}

// --- internal ---

async function _matches(ctx: EngineContext, flock: string, type: string, rule: FindRule, given: Record<string, string | undefined>): Promise<StoredRecord[]> {
  const [first] = rule.fields as [string];
  const value = given[first]!.trim();
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const { records, total } = await ctx.storage.listRecords(flock, type, {
      filters: [{ field: first, meta: false, op: "startswithi", values: [{ text: value }] }],
      mode: "AND",
      states: ["updated"],
      page,
      pageSize: MAX_PAGE_SIZE,
    });
    if (total > MAX_FIND_CANDIDATES) {
      throw badRequest("invalid find", `more than ${MAX_FIND_CANDIDATES} ${type} records start with that ${first}; give a fuller value`);
    }
    for (const r of records) if (rule.fields.every((f) => _agrees(f, r.data[f], given[f]!))) out.push(r);
    if (page * MAX_PAGE_SIZE >= total) return out;
  }
}

/** True when the stored value (or one list entry's value part) agrees with the given one. */
function _agrees(field: string, stored: unknown, wanted: string): boolean {
  const norm = _normaliser(field);
  const target = norm(wanted);
  const entries = Array.isArray(stored) ? stored : [stored];
  return entries.some((e) => (typeof e === "string" || typeof e === "number") && norm(parseEntry(String(e)).value) === target);
}

function _normaliser(field: string): (s: string) => string {
  if (field === "postal_code") return (s) => foldText(s).replace(/\s+/g, "");
  if (field === "date_of_birth") return (s) => s.trim().slice(0, 10);
  return (s) => foldText(s.trim()).replace(/\s+/g, " ");
}
