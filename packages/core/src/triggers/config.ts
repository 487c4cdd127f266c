/**
 * @module triggers/config
 * Trigger configuration (the config file's `triggers[]`, or the library API): the shape
 * of an entry, and the rules an entry set must keep: a known trigger name, a known
 * action, at most one action of each type per (flock, trigger), webhook URL rules, email
 * actions with something to send, and conditional templates that parse. Every problem is
 * reported at once, each naming the entry's index and what would be accepted.
 */
import * as v from "valibot";
import { badRequest } from "../errors.js";
import { EVENT_CATALOGUE } from "../events/catalogue.js";
import { findTrigger, suggestTriggerNames } from "../events/trigger-names.js";
import type { Catalogue } from "../events/types.js";
import { type ConditionalTemplateRules, parseConditionalTemplates } from "./conditional-templates.js";
import { redactUrl } from "./redact-url.js";
import { restrictedHostProblem } from "./target-address.js";

/** The spec's actions. `send-webhook` is deprecated (accepted, with a warning). */
const TRIGGER_ACTIONS = [
  "send-templated-email",
  "draft-templated-email",
  "send-email-to-fixed-address",
  "send-json-webhook",
  "send-webhook",
] as const;
export type TriggerAction = (typeof TRIGGER_ACTIONS)[number];

/** Actions that POST to `url`. */
const WEBHOOK_ACTIONS: readonly TriggerAction[] = ["send-json-webhook", "send-webhook"];
/** Actions that render an email template. */
const EMAIL_ACTIONS: readonly TriggerAction[] = ["send-templated-email", "draft-templated-email", "send-email-to-fixed-address"];
const DEPRECATED_ACTIONS: readonly TriggerAction[] = ["send-webhook"];

/**
 * The shape of one configured trigger: types and known keys only (the rules are checked by
 * `validateTriggers`). A config-file schema can embed it: `v.array(TriggerEntrySchema)`.
 */
export const TriggerEntrySchema = v.strictObject({
  flock: v.pipe(v.string(), v.nonEmpty()),
  trigger: v.string(),
  action: v.string(),
  /** Webhook target (webhook actions), or the fixed address (`send-email-to-fixed-address`). */
  url: v.optional(v.nullable(v.string())),
  template: v.optional(v.nullable(v.string())),
  active: v.optional(v.boolean()),
  comment: v.optional(v.nullable(v.string())),
  /** The spec's rule set, as an object or as a JSON string. */
  conditional_templates: v.optional(v.nullable(v.union([v.string(), v.record(v.string(), v.unknown())]))),
});
export type TriggerEntryInput = v.InferInput<typeof TriggerEntrySchema>;

/** A validated trigger. */
export interface TriggerConfig {
  flock: string;
  /** The trigger name (`expiring_2wk`). */
  trigger: string;
  event: string;
  variation: string | null;
  action: TriggerAction;
  /** Webhook URL, or the fixed address (a bare address; a `mailto:` prefix is removed). */
  url: string | null;
  /** Null when unset or empty. */
  template: string | null;
  active: boolean;
  comment: string;
  conditionalTemplates: ConditionalTemplateRules | null;
}

/** Options of `validateTriggers`. */
export interface TriggerValidationOptions {
  /** Accept `http://` webhook URLs (local development only; implies `allowPrivateTargets`). Default false. */
  allowInsecureUrls?: boolean;
  /** Accept webhook URLs whose host is a private, loopback or link-local address (or `localhost`). Default false. */
  allowPrivateTargets?: boolean;
  catalogue?: Catalogue;
  /** When given, every template an entry names must exist in its flock. */
  templateExists?: (flock: string, name: string) => boolean;
}

/**
 * Checks a list of trigger entries and returns them normalised, with warnings for
 * deprecated names and actions. Throws `RecordsError("bad_request")` listing every
 * problem, each as `triggers[i] (<trigger>, <action>): <problem>`.
 *
 * @example
 * validateTriggers([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://example.org/hook" }])
 * // { triggers: [{ flock: "demo", trigger: "contact_created", event: "contact", variation: "created", ... }], warnings: [] }
 */
export function validateTriggers(
  entries: unknown,
  options: TriggerValidationOptions = {},
): { triggers: TriggerConfig[]; warnings: string[] } {
  if (!Array.isArray(entries)) throw badRequest("invalid trigger configuration", "triggers: expected an array of trigger entries");
  const problems: string[] = [];
  const warnings: string[] = [];
  const triggers: TriggerConfig[] = [];
  const seen = new Map<string, number>();
  entries.forEach((raw, i) => {
    const label = _label(raw, i);
    const report = (problem: string) => problems.push(`${label}: ${problem}`);
    const shape = v.safeParse(TriggerEntrySchema, raw);
    if (!shape.success) {
      for (const issue of shape.issues) report(_shapeProblem(issue));
      return;
    }
    const t = _checkEntry(shape.output, options, report, (w) => warnings.push(`${label}: ${w}`));
    if (!t) return;
    const key = `${t.flock}\u0000${t.trigger}\u0000${t.action}`;
    const first = seen.get(key);
    if (first !== undefined) {
      report(`a second ${t.action} action for trigger ${t.trigger} in flock ${t.flock} (the first is triggers[${first}]); each trigger takes at most one action of each type`);
      return;
    }
    seen.set(key, i);
    triggers.push(t);
  });
  if (problems.length > 0) {
    throw badRequest("invalid trigger configuration", problems.join("; "));
  }
  return { triggers, warnings };
}

/**
 * Why a webhook URL is refused, or null when it is accepted: a full `https://` URL with
 * a host (`http://` too when `allowInsecureUrls`), whose host is not a literal private,
 * loopback or link-local address nor `localhost` (unless `allowPrivateTargets` or
 * `allowInsecureUrls`). Names are checked again on what they resolve to, at delivery.
 *
 * @example
 * webhookUrlProblem("http://example.org/hook", false) // "url \"http://example.org/hook\" must be a full https:// URL ..."
 * webhookUrlProblem("https://192.168.1.5/hook") // "url ... points at 192.168.1.5, a private address; ..."
 */
export function webhookUrlProblem(url: string | null | undefined, allowInsecureUrls = false, allowPrivateTargets = false): string | null {
  const wanted = allowInsecureUrls ? "a full https:// or http:// URL" : "a full https:// URL";
  if (url === null || url === undefined || url.trim() === "") return `url is required: ${wanted}`;
  let parsed: URL | undefined;
  try {
    parsed = /\s/.test(url) ? undefined : new URL(url);
  } catch {
    parsed = undefined;
  }
  const schemeOk = parsed?.protocol === "https:" || (allowInsecureUrls && parsed?.protocol === "http:");
  if (parsed && schemeOk && parsed.hostname !== "") return allowInsecureUrls || allowPrivateTargets ? null : restrictedHostProblem(url);
  const hint = parsed?.protocol === "http:" ? " (http:// is accepted only with webhooks.allowInsecureUrls, for local development)" : "";
  return `url ${JSON.stringify(url)} must be ${wanted}${hint}`;
}

/** One trigger as `GET /api/v1/{flock}/triggers/` serves it. */
export interface TriggerView {
  trigger: string;
  action: string;
  template: string;
  url: string | null;
  active: boolean;
  comment: string;
}

/**
 * The `GET /api/v1/{flock}/triggers/` body: an object keyed by trigger name, each an array
 * of trigger records, in configuration order. With `flock`, only that flock's triggers.
 * Webhook URLs lose their credentials and query string (`redactUrl`) unless `revealUrls`
 * (administrators).
 *
 * @example
 * triggersView(triggers, "demo", { revealUrls: false }) // { contact_created: [{ url: "https://***@hooks.example.org/in?***", ... }] }
 */
export function triggersView(
  triggers: readonly TriggerConfig[],
  flock?: string,
  options: { revealUrls?: boolean } = {},
): Record<string, TriggerView[]> {
  const out: Record<string, TriggerView[]> = {};
  for (const t of triggers) {
    if (flock !== undefined && t.flock !== flock) continue;
    const view: TriggerView = {
      trigger: t.trigger,
      action: t.action,
      template: t.template ?? "",
      url: t.url !== null && WEBHOOK_ACTIONS.includes(t.action) && !options.revealUrls ? redactUrl(t.url) : t.url,
      active: t.active,
      comment: t.comment,
    };
    (out[t.trigger] ??= []).push(view);
  }
  return out;
}

// --- internal ---

const _EMAIL_RE = /^[^\s@;,<>]+@[^\s@;,<>]+$/;

function _checkEntry(
  e: v.InferOutput<typeof TriggerEntrySchema>,
  options: TriggerValidationOptions,
  reportTo: (problem: string) => void,
  warn: (warning: string) => void,
): TriggerConfig | undefined {
  let failed = false;
  const report = (problem: string) => {
    failed = true;
    reportTo(problem);
  };
  const catalogue = options.catalogue ?? EVENT_CATALOGUE;
  const parsed = findTrigger(e.trigger, catalogue);
  if (!parsed) {
    const close = suggestTriggerNames(e.trigger, catalogue);
    report(`unknown trigger ${JSON.stringify(e.trigger)}${close.length ? `; did you mean ${close.join(", ")}?` : "; see docs/events.md for the trigger names"}`);
  } else if (parsed.deprecated) {
    warn(`trigger ${e.trigger} is deprecated`);
  }
  const action = (TRIGGER_ACTIONS as readonly string[]).includes(e.action) ? (e.action as TriggerAction) : undefined;
  if (!action) report(`unknown action ${JSON.stringify(e.action)}; expected one of ${TRIGGER_ACTIONS.join(", ")}`);
  else if (DEPRECATED_ACTIONS.includes(action)) warn(`action ${action} is deprecated; use send-json-webhook`);

  const template = e.template?.trim() ? e.template : null;
  let rules: ConditionalTemplateRules | null = null;
  if (e.conditional_templates !== undefined && e.conditional_templates !== null) {
    const r = parseConditionalTemplates(e.conditional_templates);
    if (r.ok) rules = r.rules;
    else report(`conditional_templates of trigger ${e.trigger}: ${r.problem}`);
  }
  const url = action ? _checkUrl(action, e.url, options, report) : null;
  if (action && EMAIL_ACTIONS.includes(action) && !template && !rules) {
    report(`${action} needs a template or conditional_templates`);
  }
  if (options.templateExists) {
    const named = [template, ...(rules?.template.map((r) => r.template) ?? [])].filter((n): n is string => n !== null);
    for (const name of new Set(named)) {
      if (!options.templateExists(e.flock, name)) report(`template ${JSON.stringify(name)} does not exist in flock ${e.flock}`);
    }
  }
  if (failed || !parsed || !action) return undefined;
  return {
    flock: e.flock,
    trigger: e.trigger,
    event: parsed.event,
    variation: parsed.variation,
    action,
    url,
    template,
    active: e.active ?? true,
    comment: e.comment ?? "",
    conditionalTemplates: rules,
  };
}

function _checkUrl(
  action: TriggerAction,
  url: string | null | undefined,
  options: TriggerValidationOptions,
  report: (problem: string) => void,
): string | null {
  if (WEBHOOK_ACTIONS.includes(action)) {
    const problem = webhookUrlProblem(url, options.allowInsecureUrls ?? false, options.allowPrivateTargets ?? false);
    if (problem) report(problem);
    return url ?? null;
  }
  const given = url?.trim() ? url.trim() : null;
  if (action === "send-email-to-fixed-address") {
    const address = given?.replace(/^mailto:/i, "") ?? "";
    if (!_EMAIL_RE.test(address)) {
      report(`url must hold the fixed address (e.g. "ops@example.org" or "mailto:ops@example.org"), got ${JSON.stringify(url ?? null)}`);
    }
    return address;
  }
  if (given !== null) report(`url is not used by ${action}; leave it empty (only webhook actions and send-email-to-fixed-address take a url)`);
  return null;
}

function _label(raw: unknown, i: number): string {
  if (typeof raw !== "object" || raw === null) return `triggers[${i}]`;
  const o = raw as Record<string, unknown>;
  const parts = [o.trigger, o.action].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length > 0 ? `triggers[${i}] (${parts.join(", ")})` : `triggers[${i}]`;
}

function _shapeProblem(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  if (issue.expected === "never") return `unknown key ${JSON.stringify(path ?? String(issue.input))}`;
  if (path === null) return `expected an object, got ${issue.received}`;
  if (issue.input === undefined) return `${path} is required`;
  return `${path}: expected ${issue.expected}, got ${issue.received}`;
}
