/**
 * @module actions/email/journal
 * Every email sent, drafted or failed is also a `journal` record in the flock (contract):
 * `kind` email, `status` (`sent`, `draft` or `failed`), `to`, `subject`, `body`,
 * `template`, `trigger`, `contact_ref`; plus `data_event_ref` (the event it answered),
 * `error` (why it failed, or why a send was kept as a draft) and `message_id` (the SMTP id).
 * The record is returned in the action's change set, so it commits with the job's outcome.
 */
import { derive, formatTimestamp, recordUri, type ChangeSet, type IdSource, type StoredRecord } from "@records-service/core";

/** The journal statuses of an email. */
type EmailStatus = "sent" | "draft" | "failed";

/** What the journal records about one email. */
export interface EmailJournalEntry {
  status: EmailStatus;
  to: string | null;
  subject: string | null;
  body: string | null;
  template: string | null;
  trigger: string;
  contactRef: string | null;
  dataEvent: StoredRecord;
  error?: string;
  messageId?: string;
}

/**
 * The change set inserting the journal record of `entry`.
 *
 * @example
 * journalChanges({ status: "sent", to: "ada@example.org", ... }, ids, now).records[0].record.type // "journal"
 */
export function journalChanges(entry: EmailJournalEntry, ids: IdSource, now: Date): ChangeSet & { records: [{ kind: "insert"; record: StoredRecord }] } {
  const data: Record<string, unknown> = {
    kind: "email",
    status: entry.status,
    to: entry.to,
    subject: entry.subject,
    body: entry.body,
    template: entry.template,
    trigger: entry.trigger,
    contact_ref: entry.contactRef,
    data_event_ref: recordUri(entry.dataEvent.flock, entry.dataEvent.type, entry.dataEvent.id),
    ...(entry.error !== undefined ? { error: entry.error } : {}),
    ...(entry.messageId !== undefined ? { message_id: entry.messageId } : {}),
  };
  const at = formatTimestamp(now);
  const record: StoredRecord = {
    id: ids(),
    flock: entry.dataEvent.flock,
    type: "journal",
    state: "updated",
    ...derive("journal", data),
    created: at,
    lastUpdated: at,
    version: 1,
  };
  return { records: [{ kind: "insert", record }] };
}
