/**
 * @module gateway/segments/rules
 * A segment's saved rules as the generic list's query (spec v2-gateway 3.1), so a segment
 * filters exactly as `GET /api/v2/{flock}/{type}/?...` does. Two forms are read: the object
 * form (list parameters as keys) and the vendor's array form (`{field, operator, value}`,
 * combined with AND). Any rule the filter code refuses is a 400 naming the segment and rule.
 */
import { badRequest, isRecordsError, parseListQuery, PERSON_FIELDS, type ListQuery } from "@records-service/core";

/** The vendor's operators and the modifiers they stand for (`""`: a bare `field=value`). */
const RULE_OPERATORS: Readonly<Record<string, string>> = {
  equals: "",
  exact: "",
  not_equal_to: "ne",
  greater_than: "gt",
  greater_than_or_equals: "gte",
  less_than: "lt",
  less_than_or_equals: "lte",
  starts_with: "startswith",
  starts_with_case_insensitive: "startswithi",
  and_list: "andlist",
  or_list: "orlist",
  none_of: "none",
  near: "near",
  raw: "raw",
  contains: "contains",
};

/** Object-form keys that steer a list rather than filter it: ignored in rules. */
const _IGNORED_KEYS = new Set(["page", "page_size", "limit", "include_deleted", "state"]);

/**
 * The list parameters of a segment's `rules` (absent: none, every record matches).
 * `segment` names the segment in messages.
 *
 * @example
 * ruleParams([{ field: "source", operator: "equals", value: "web" }], "/demo/segment/…/")
 * // [["source", "web"]]
 */
function ruleParams(rules: unknown, segment: string): [string, string][] {
  if (rules === undefined || rules === null) return [];
  if (Array.isArray(rules)) return rules.map((rule, i) => _arrayRule(rule, i, segment));
  if (typeof rules !== "object") throw _bad(segment, "rules", "rules must be an object of list parameters or an array of {field, operator, value}");
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(rules as Record<string, unknown>)) {
    if (_IGNORED_KEYS.has(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) out.push([key, _text(v, segment, key)]);
  }
  return out;
}

/**
 * The segment's query over `type` (states: live records only; paging one record, as a
 * count needs). A filter the parser refuses is a 400 naming the segment and the rule.
 */
export function segmentQuery(rules: unknown, type: string, segment: string, now: Date): ListQuery {
  const params = ruleParams(rules, segment);
  try {
    const q = parseListQuery(params, { surface: "v2", now, isKnownField: type === "person" ? (f) => Object.hasOwn(PERSON_FIELDS, f) : undefined });
    return { ...q, states: ["updated"], page: 1, pageSize: 1 };
  } catch (e) {
    if (isRecordsError(e) && e.status === 400) throw _bad(segment, "rule", `${e.message}: ${e.detail}`);
    throw e;
  }
}

// --- internal ---

function _arrayRule(rule: unknown, i: number, segment: string): [string, string] {
  const where = `rules[${i}]`;
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) throw _bad(segment, where, "each rule must be an object {field, operator, value}");
  const { field, operator, value } = rule as Record<string, unknown>;
  if (typeof field !== "string" || field === "") throw _bad(segment, where, "field must be a non-empty text");
  const op = typeof operator === "string" ? operator : "equals";
  const modifier = RULE_OPERATORS[op];
  if (modifier === undefined || !Object.hasOwn(RULE_OPERATORS, op)) {
    throw _bad(segment, where, `unknown operator ${JSON.stringify(String(operator).slice(0, 40))}; use one of ${Object.keys(RULE_OPERATORS).join(", ")}`);
  }
  const text = Array.isArray(value) ? value.map((v) => _text(v, segment, where)).join(",") : _text(value, segment, where);
  return [modifier ? `${field}__${modifier}` : field, text];
}

function _text(v: unknown, segment: string, where: string): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw _bad(segment, where, `a rule value must be a text, number or boolean, not ${v === null ? "null" : typeof v}`);
}

function _bad(segment: string, where: string, why: string) {
  return badRequest("invalid segment rule", `segment ${segment}: ${where}: ${why}`);
}
