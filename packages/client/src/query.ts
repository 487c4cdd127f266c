/**
 * @module query
 * A typed builder for list queries: field filters with the 16 modifiers, `mode`, smart
 * dates, deleted records and paging, turned into the query string the server parses.
 *
 * @example
 * const q = query<PersonData>().where("last_name", "startswithi", "lo").where("created", "gte", "last month").pageSize(100);
 * await client.records("demo", "person").list(q);
 */

import type { Schemas } from "./types.js";

/**
 * The 16 modifiers; `andlist` and `orlist` are v2 only (400 on v1 paths). The type is the
 * server's (`FilterModifier` of the OpenAPI document); the list below must name exactly its
 * members, or this file does not compile (see `_Exactly`).
 */
export const MODIFIERS = [
  "and",
  "andlist",
  "contains",
  "eq",
  "gt",
  "gte",
  "lt",
  "lte",
  "ne",
  "near",
  "none",
  "or",
  "orlist",
  "raw",
  "startswith",
  "startswithi",
] as const satisfies readonly Schemas["FilterModifier"][];
export type Modifier = Schemas["FilterModifier"];

/** The strings that stand in for a date in a filter, resolved by the server's clock (the document's `SmartDate`). */
export const SMART_DATES = [
  "today",
  "tomorrow",
  "yesterday",
  "last week",
  "last month",
  "last year",
  "year_ago",
  "next week",
  "next month",
  "next year",
  "start_of_month",
  "start_of_year",
] as const satisfies readonly Schemas["SmartDate"][];
export type SmartDate = Schemas["SmartDate"];

// Compile-time: each list names every member of the server's type (a member the server adds breaks the build).
type _Exactly<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : never;
const _modifiersComplete: _Exactly<Modifier, (typeof MODIFIERS)[number]> = true;
const _smartDatesComplete: _Exactly<SmartDate, (typeof SMART_DATES)[number]> = true;
void _modifiersComplete;
void _smartDatesComplete;

/** A filter value: text, a number, a boolean, a smart date or a Date (sent as UTC timestamp). */
export type FilterValue = string | number | boolean | Date | SmartDate;

/** Fields every record can be filtered on besides its data. */
export type MetaField = "created" | "last_updated" | "state";

/** The list modifiers that take several values (repeated parameters, or comma-joined for the *list ones). */
type ManyValued = "and" | "or" | "none" | "andlist" | "orlist";

/** A list query under construction. Each call returns a new query; the original is unchanged. */
export class Query<D = Record<string, unknown>> {
  readonly #params: readonly [string, string][];

  constructor(params: readonly [string, string][] = []) {
    this.#params = params;
  }

  /** `field=value` (exact) or `field__modifier=value`; the many-valued modifiers take a list. */
  where<F extends (keyof D & string) | MetaField>(field: F, value: FilterValue): Query<D>;
  where<F extends (keyof D & string) | MetaField>(field: F, modifier: Exclude<Modifier, ManyValued>, value: FilterValue): Query<D>;
  where<F extends (keyof D & string) | MetaField>(field: F, modifier: ManyValued, values: FilterValue | readonly FilterValue[]): Query<D>;
  where(field: string, a: unknown, b?: unknown): Query<D> {
    if (b === undefined) return this.#with([[field, _text(a as FilterValue)]]);
    const modifier = a as Modifier;
    if (!(MODIFIERS as readonly string[]).includes(modifier)) throw new TypeError(`unknown modifier ${JSON.stringify(modifier)}: one of ${MODIFIERS.join(", ")}`);
    const values = (Array.isArray(b) ? b : [b]) as FilterValue[];
    const key = `${field}__${modifier}`;
    // The *list modifiers take one comma-separated value; the others repeat the parameter.
    if (modifier === "andlist" || modifier === "orlist") return this.#with([[key, values.map(_text).join(",")]]);
    return this.#with(values.map((v) => [key, _text(v)] as [string, string]));
  }

  /** How field filters combine (default AND). */
  mode(mode: "AND" | "OR"): Query<D> {
    return this.#set("mode", mode);
  }

  /** Include deleted records; `only` gives deleted records only. */
  includeDeleted(only = false): Query<D> {
    const q = this.#set("include_deleted", "Y");
    return only ? q.#set("state", "deleted") : q;
  }

  /**
   * The list's order: by `field`, `descending` for the other way (`sort("created", true)`:
   * newest first). Without it, creation order. Records without a value come last either way.
   */
  sort<F extends (keyof D & string) | "id" | "created" | "last_updated">(field: F, descending = false): Query<D> {
    return this.#set("sort", `${descending ? "-" : ""}${field}`);
  }

  /** The page, from 1. */
  page(page: number): Query<D> {
    return this.#set("page", String(page));
  }

  /** Records per page, 1 to 1500 (server default 25). */
  pageSize(size: number): Query<D> {
    return this.#set("page_size", String(size));
  }

  /** The page asked for (1 when not set). */
  get pageNumber(): number {
    return Number(this.#get("page") ?? 1);
  }

  /** The page size asked for, if any. */
  get size(): number | undefined {
    const s = this.#get("page_size");
    return s === undefined ? undefined : Number(s);
  }

  /** The query string's parameters. */
  toSearchParams(): URLSearchParams {
    return new URLSearchParams(this.#params as [string, string][]);
  }

  #get(name: string): string | undefined {
    return this.#params.findLast(([k]) => k === name)?.[1];
  }

  #set(name: string, value: string): Query<D> {
    return new Query<D>([...this.#params.filter(([k]) => k !== name), [name, value]]);
  }

  #with(params: [string, string][]): Query<D> {
    return new Query<D>([...this.#params, ...params]);
  }
}

/**
 * A new, empty query over records whose data is `D`.
 *
 * @example
 * query<PersonData>().where("tags", "and", ["vip", "donor"]).mode("OR")
 */
export function query<D = Record<string, unknown>>(): Query<D> {
  return new Query<D>();
}

// --- internal ---

function _text(v: FilterValue): string {
  if (v instanceof Date) return v.toISOString().replace(/\.(\d{3})Z$/, (_, ms: string) => `.${ms}000`);
  return String(v);
}
