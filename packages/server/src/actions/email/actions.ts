/**
 * @module actions/email/actions
 * `send-templated-email` (to the contact's primary address), `draft-templated-email` (kept
 * as a draft, never sent) and `send-email-to-fixed-address` (to the trigger's `url`).
 * Each writes a journal record of what it did, committed with the job's outcome:
 *
 * | case | outcome | journal status |
 * |---|---|---|
 * | sent over SMTP | success | `sent` |
 * | a draft action, or a send without `mail.smtp` | success | `draft` (with `error` saying why it was not sent) |
 * | no rule applies and no default template | success, nothing written | none |
 * | no recipient, unknown template, a template failing, SMTP 5xx | permanent failure | `failed` |
 * | SMTP unreachable, timeout, 4xx | failure, retried by the outbox | none (the job records the error) |
 */
import type { ActionHandler, ActionOutcome, ActionRunContext, ChangeSet, IdSource, RecordReader, TriggerAction } from "@records-service/core";
import type { WorkerContext } from "../../runtime/workers.js";
import { composeEmail, contactAddress, contactRef } from "./compose.js";
import { journalChanges, type EmailJournalEntry } from "./journal.js";
import { compileTemplates, type TemplateSet } from "./templates.js";
import { createSmtpTransport, MailSendError, type MailTransport } from "./transport.js";

/** What the email actions need. */
export interface EmailActionOptions {
  templates: TemplateSet;
  /** Reads the names of referenced records (conditional templates, rule 7): `engine.read`. */
  records: Pick<RecordReader, "getRecords">;
  /** Ids of the journal records. */
  ids: IdSource;
  /** The SMTP transport; none when `mail.smtp` is not set (sends are kept as drafts). */
  transport?: MailTransport;
}

/**
 * A failure that still records what happened: the failed email's journal record, to commit
 * with the job's final state.
 */
export type RecordedFailure = Extract<ActionOutcome, { ok: false }> & { changes: ChangeSet };

/** The note on a send kept as a draft because no transport is configured. */
export const NO_TRANSPORT_NOTE = "not sent: mail.smtp is not configured, so the email is kept as a draft";

/**
 * The three email actions.
 *
 * @example
 * createActionRegistry([...createEmailActions({ templates: compileTemplates(config.templates), records: engine.read, ids })]);
 */
export function createEmailActions(opts: EmailActionOptions): ActionHandler[] {
  const handler = (action: TriggerAction): ActionHandler => ({ action, run: (ctx) => runEmailAction(action, ctx, opts) });
  return [handler("send-templated-email"), handler("draft-templated-email"), handler("send-email-to-fixed-address")];
}

/**
 * The email actions of a running server: the config's templates compiled (a template that
 * does not compile throws `ConfigError` naming it), SMTP when `mail` is configured.
 */
export function emailActionsFor(ctx: WorkerContext, opts: { transport?: MailTransport } = {}): ActionHandler[] {
  const transport = opts.transport ?? (ctx.settings.mail ? createSmtpTransport(ctx.settings.mail) : undefined);
  return createEmailActions({
    templates: compileTemplates(ctx.templates),
    records: ctx.engine.read,
    ids: ctx.engine.context.ids,
    ...(transport ? { transport } : {}),
  });
}

/** One attempt of an email action (see the module's table). */
export async function runEmailAction(action: TriggerAction, ctx: ActionRunContext, opts: EmailActionOptions): Promise<ActionOutcome> {
  const fixed = action === "send-email-to-fixed-address";
  const to = fixed ? ctx.trigger.url : contactAddress(ctx.contact);
  const base = { to, trigger: ctx.trigger.trigger, contactRef: contactRef(ctx), dataEvent: ctx.dataEvent };
  const journal = (entry: Omit<EmailJournalEntry, keyof typeof base>) => journalChanges({ ...base, ...entry }, opts.ids, ctx.now);
  const fail = (error: string, entry: Omit<EmailJournalEntry, keyof typeof base | "status" | "error">): RecordedFailure => ({
    ok: false,
    permanent: true,
    error,
    changes: journal({ ...entry, status: "failed", error }),
  });

  const email = await composeEmail(ctx, opts);
  if (email.kind === "none") return { ok: true };
  if (email.kind === "error") return fail(email.error, { subject: null, body: null, template: email.template });
  const content = { subject: email.subject, body: email.body, template: email.template };
  if (to === null) {
    const who = ctx.contact ? `contact ${base.contactRef} has no email address` : "the event has no contact";
    return fail(`no recipient: ${who}`, content);
  }
  if (action === "draft-templated-email") return { ok: true, changes: journal({ ...content, status: "draft" }) };
  if (!opts.transport) return { ok: true, changes: journal({ ...content, status: "draft", error: NO_TRANSPORT_NOTE }) };
  try {
    const { messageId } = await opts.transport.send({ to, subject: email.subject, html: email.body });
    return { ok: true, changes: journal({ ...content, status: "sent", ...(messageId ? { messageId } : {}) }) };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    if (e instanceof MailSendError && e.permanent) return fail(error, content);
    return { ok: false, error };
  }
}
