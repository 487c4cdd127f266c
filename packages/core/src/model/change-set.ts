/**
 * @module model/change-set
 * What one operation changes, handed to `RecordStore.apply` and committed all or nothing.
 */
import type { Attribution } from "./attribution.js";
import type { FileOwner, StoredFile } from "./file.js";
import type { OutboxJob } from "./outbox.js";
import type { StoredRecord } from "./record.js";

/** A record write inside a change set. */
export type RecordWrite =
  | { kind: "insert"; record: StoredRecord }
  /**
   * Replaces the stored record whose version is `expectedVersion`; `record.version` is the
   * new one. `changed` names the data fields whose values differ from the stored version's,
   * decided once by the engine (`updateWrite`): adapters log it in the change feed and
   * rewrite the index rows of those fields, as given. `before` (the record as read) lets
   * the commit step see what changed; adapters ignore it.
   */
  | { kind: "update"; record: StoredRecord; expectedVersion: number; changed: readonly string[]; before?: StoredRecord };

/**
 * Everything one operation changes, applied in one transaction: all or nothing.
 * Later capabilities (events, outbox, tasks) add their own optional members.
 */
export interface ChangeSet {
  records?: RecordWrite[];
  files?: StoredFile[];
  /** Deletes every file attached to these records (obfuscation erases uploads). */
  removeFilesOf?: FileOwner[];
  /** Actions to run, queued with the events that caused them (ids must be new). */
  outbox?: OutboxJob[];
  /**
   * Who made these writes: adapters store it on every change row the set logs. Absent: the
   * rows' `actor` and `application` are null (not known).
   */
  attribution?: Attribution;
}
