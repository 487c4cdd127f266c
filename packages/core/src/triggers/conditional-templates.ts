/**
 * @module triggers/conditional-templates
 * Choosing an email template for a data event by the spec's seven rules:
 * 1. rules are JSON; invalid JSON (or an invalid rule set) is not evaluated;
 * 2. rules are checked in ascending `order` (ties keep their written order);
 * 3. every condition of a rule must hold for the rule to apply;
 * 4. when no rule applies, the action's own template is used, or none when it is unset;
 * 5. a condition names any field of the data event and compares by simple equality;
 * 6. for a list field, a condition holds when its value is one of the entries;
 * 7. for a reference field, the value may be the referenced record's URI or its name.
 */
import * as v from "valibot";
import { parseEntry } from "../schema/list-entries.js";
import { isRecordUri } from "../schema/references.js";

/** A condition value: simple equality only, so scalars only. */
export type ConditionValue = string | number | boolean | null;

/** One rule of a conditional template rule set. */
export interface ConditionalTemplateRule {
  order: number;
  template: string;
  /** Each object maps field names to required values; every pair of every object must hold. */
  conditions: Record<string, ConditionValue>[];
}

/** The spec's rule set: `{ "template": [rules] }`. */
export interface ConditionalTemplateRules {
  template: ConditionalTemplateRule[];
}

/** The shape of a rule set; unknown keys are refused so a misspelt key cannot silently never match. */
const ConditionalTemplatesSchema = v.strictObject({
  template: v.array(
    v.strictObject({
      order: v.pipe(v.number(), v.integer()),
      template: v.pipe(v.string(), v.nonEmpty()),
      conditions: v.optional(
        v.array(v.record(v.string(), v.nullable(v.union([v.string(), v.number(), v.boolean()])))),
        [],
      ),
    }),
  ),
});

/**
 * What the conditions look at: the context record's data, then the data event's own
 * fields (`name`, `event`, `variation`, `fire_at`, `context_ref`, `tags`, ...). A field
 * present in both is read from the record's data.
 */
export interface TemplateContext {
  data: Readonly<Record<string, unknown>>;
  event?: Readonly<Record<string, unknown>>;
}

/** Resolves a record URI to its display name (rule 7); undefined when unknown. */
export type NameResolver = (uri: string) => string | undefined;

/**
 * A rule set from its configured form: an object, or a JSON string. Returns the problem
 * (invalid JSON, or which part of the rule set is wrong) instead of throwing.
 *
 * @example
 * parseConditionalTemplates('{"template":[{"order":1,"template":"vip","conditions":[{"tags":"vip"}]}]}').ok // true
 * parseConditionalTemplates("{oops").ok // false
 */
export function parseConditionalTemplates(
  input: unknown,
): { ok: true; rules: ConditionalTemplateRules } | { ok: false; problem: string } {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, problem: `invalid JSON (${(e as Error).message})` };
    }
  }
  const result = v.safeParse(ConditionalTemplatesSchema, value);
  if (result.success) return { ok: true, rules: result.output };
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  return { ok: false, problem: `${path ? `${path}: ` : ""}${issue.message}` };
}

/**
 * The template to use for a data event: the first rule (ascending `order`) whose
 * conditions all hold, else `fallback` (the action's template; empty means none).
 * `rules` may be the configured object or JSON string; an invalid one is not evaluated.
 *
 * @example
 * pickTemplate({ template: [{ order: 1, template: "vip-welcome", conditions: [{ tags: "vip" }] }] },
 *   { data: { tags: ["member", "vip"] } }, "welcome") // "vip-welcome"
 */
export function pickTemplate(
  rules: unknown,
  context: TemplateContext,
  fallback: string | null | undefined,
  resolveName: NameResolver = () => undefined,
): string | null {
  const parsed = rules === null || rules === undefined ? undefined : parseConditionalTemplates(rules);
  if (parsed?.ok) {
    const ordered = parsed.rules.template.map((rule, i) => ({ rule, i })).sort((a, b) => a.rule.order - b.rule.order || a.i - b.i);
    for (const { rule } of ordered) {
      const holds = rule.conditions.every((c) =>
        Object.entries(c).every(([field, want]) => _matches(_field(context, field), want, resolveName)),
      );
      if (holds) return rule.template;
    }
  }
  return fallback === undefined || fallback === null || fallback.trim() === "" ? null : fallback;
}

/**
 * The record URIs that the rule set's conditions compare against (rule 7): resolve their
 * names (e.g. with one storage read) before calling `pickTemplate`.
 */
export function referencesToResolve(rules: unknown, context: TemplateContext): string[] {
  const parsed = rules === null || rules === undefined ? undefined : parseConditionalTemplates(rules);
  if (!parsed?.ok) return [];
  const uris = new Set<string>();
  for (const rule of parsed.rules.template) {
    for (const c of rule.conditions) {
      for (const field of Object.keys(c)) {
        const value = _field(context, field);
        for (const element of Array.isArray(value) ? value : [value]) {
          const uri = _uriOf(element);
          if (uri) uris.add(uri);
        }
      }
    }
  }
  return [...uris];
}

// --- internal ---

function _field(context: TemplateContext, field: string): unknown {
  if (Object.hasOwn(context.data, field)) return context.data[field];
  return context.event && Object.hasOwn(context.event, field) ? context.event[field] : undefined;
}

function _matches(value: unknown, want: ConditionValue, resolveName: NameResolver): boolean {
  if (want === null) return _isUnset(value);
  if (Array.isArray(value)) return value.some((entry) => _scalarMatches(entry, want, resolveName, true));
  return _scalarMatches(value, want, resolveName, false);
}

function _isUnset(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return Array.isArray(value) && value.every((e) => e === null || e === undefined);
}

/** Simple equality on the text form, plus rule 7 for references and rule 6's `value;label` entries. */
function _scalarMatches(value: unknown, want: Exclude<ConditionValue, null>, resolveName: NameResolver, inList: boolean): boolean {
  const wanted = String(want);
  const uri = _uriOf(value);
  if (uri) {
    if (_sameUri(uri, wanted) || value === wanted) return true;
    const name = _displayOf(value) ?? resolveName(uri);
    return name !== undefined && name === wanted;
  }
  if (typeof value === "string") return value === wanted || (inList && parseEntry(value).value === wanted);
  if (typeof value === "number" || typeof value === "boolean") return String(value) === wanted;
  return false;
}

/** The record URI a value references: a URI string, a `uri;label` list entry, or a `{ref, display_value}` object. */
function _uriOf(value: unknown): string | undefined {
  if (typeof value === "string") {
    const part = parseEntry(value).value;
    return isRecordUri(part) ? part : undefined;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const ref = (value as { ref?: unknown }).ref;
    return isRecordUri(ref) ? ref : undefined;
  }
  return undefined;
}

function _displayOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const d = (value as { display_value?: unknown }).display_value;
  return typeof d === "string" ? d : undefined;
}

/** URIs compare with or without their trailing slash. */
function _sameUri(uri: string, wanted: string): boolean {
  return uri === wanted || uri === `${wanted}/`;
}
