/**
 * @module actions/email/compose
 * What an email action writes for one event: the template chosen by the trigger's
 * conditional templates (core's `pickTemplate`, the spec's seven rules, with reference
 * names read through `engine.read`), the data it is rendered with, and the recipient.
 */
import {
  parseRecordUri,
  pickTemplate,
  primaryEntry,
  recordUri,
  referencesToResolve,
  type ActionRunContext,
  type RecordKey,
  type RecordReader,
  type StoredRecord,
  type TemplateContext,
} from "@records-service/core";
import type { TemplateSet } from "./templates.js";

/** The composed email, or why there is none. */
export type Composition =
  | { kind: "email"; template: string; subject: string; body: string }
  /** No rule applied and the trigger has no default template: nothing to send. */
  | { kind: "none" }
  | { kind: "error"; template: string | null; error: string };

/**
 * Chooses the template and renders it. Never throws: a missing template or a template
 * that fails at run time is an `error` composition (permanent: it fails the same way again).
 *
 * @example
 * await composeEmail(ctx, { templates, records: engine.read }) // { kind: "email", template: "welcome", subject: "Hello Ada", body: "..." }
 */
export async function composeEmail(ctx: ActionRunContext, deps: { templates: TemplateSet; records: Pick<RecordReader, "getRecords"> }): Promise<Composition> {
  const context: TemplateContext = { data: ctx.record?.data ?? {}, event: ctx.dataEvent.data };
  const rules = ctx.trigger.conditionalTemplates;
  const names = rules ? await _referenceNames(deps.records, ctx.flock.identifier, referencesToResolve(rules, context)) : new Map();
  const name = pickTemplate(rules, context, ctx.trigger.template, (uri) => names.get(uri));
  if (name === null) return { kind: "none" };
  const template = deps.templates.get(ctx.flock.identifier, name);
  if (!template) return { kind: "error", template: name, error: `template ${JSON.stringify(name)} does not exist in flock ${ctx.flock.identifier}` };
  const it = templateData(ctx);
  try {
    return { kind: "email", template: name, subject: template.subject(it), body: template.body(it) };
  } catch (e) {
    const reason = String(e instanceof Error ? e.message : e).split("\n")[0];
    return { kind: "error", template: name, error: `template ${JSON.stringify(name)} failed: ${reason}` };
  }
}

/**
 * The template's `it` (contract): the data event's fields, with `data` the context
 * record's data, `record` the whole record (the single-record envelope, as webhooks send
 * it), `contact` the related person's data (or null), and `flock` and `trigger`.
 */
function templateData(ctx: ActionRunContext): Record<string, unknown> {
  return {
    ...ctx.dataEvent.data,
    data: ctx.record?.data ?? {},
    record: ctx.payload.data,
    contact: ctx.contact?.data ?? null,
    flock: ctx.flock.identifier,
    trigger: ctx.trigger.trigger,
  };
}

/**
 * The contact's primary email address (the entry marked primary, else the first), the
 * part before `;`; null when it has none that looks like an address.
 *
 * @example
 * contactAddress(person with email ["ada@home.org;home", "ada@work.org;work__primary"]) // "ada@work.org"
 */
export function contactAddress(contact: StoredRecord | undefined): string | null {
  const email = contact?.data.email;
  const entry = primaryEntry(Array.isArray(email) ? email : typeof email === "string" ? [email] : []);
  const address = entry?.value.trim() ?? "";
  return /^[^\s@;,<>]+@[^\s@;,<>]+$/.test(address) ? address : null;
}

/** The URI of the event's contact, for the journal's `contact_ref`. */
export function contactRef(ctx: ActionRunContext): string | null {
  return ctx.contact ? recordUri(ctx.contact.flock, ctx.contact.type, ctx.contact.id) : null;
}

// --- internal ---

/** Rule 7: the display names of the referenced records, in one read. */
async function _referenceNames(records: Pick<RecordReader, "getRecords">, flock: string, uris: string[]): Promise<Map<string, string>> {
  const keys: RecordKey[] = [];
  const uriOf = new Map<string, string>();
  for (const uri of uris) {
    const parsed = parseRecordUri(uri.endsWith("/") ? uri : `${uri}/`);
    if (!parsed || parsed.flock !== flock) continue;
    keys.push({ type: parsed.type, id: parsed.id });
    uriOf.set(`${parsed.type}/${parsed.id}`, uri);
  }
  const names = new Map<string, string>();
  if (keys.length === 0) return names;
  for (const r of await records.getRecords(flock, keys)) {
    const uri = uriOf.get(`${r.type}/${r.id}`);
    if (uri !== undefined) names.set(uri, r.displayValue);
  }
  return names;
}
