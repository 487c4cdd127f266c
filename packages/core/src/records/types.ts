/**
 * @module records/types
 * The record engine's public shape. `createRecordEngine()` (records/engine.ts) returns a
 * `RecordEngine`; the HTTP server and in-process users call only these methods.
 */
import type { Attribution } from "../model/attribution.js";
import type { FieldIndexView } from "../model/field-index.js";
import type { IndexDemandOptions } from "../indexes/demand.js";
import type { ChangeEvent, ChangesOptions } from "../changes/feed.js";
import type { IdSource } from "../ids.js";
import type { ListPage, ListQuery } from "../model/query.js";
import type { ChangeSet } from "../model/change-set.js";
import type { StoredFile } from "../model/file.js";
import type { FileStore } from "../storage/file-store.js";
import type { RecordStore } from "../storage/record-store.js";
import type { OutboxJob } from "../model/outbox.js";
import type { RecordKey, StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";
import type { Clock } from "../time.js";
import type { TriggerConfig } from "../triggers/config.js";

/** The triggers configured for a flock (active or not); the engine queues jobs for the active ones. */
export type TriggerProvider = (flock: string) => readonly TriggerConfig[];

/** Told after a commit that queued outbox jobs (e.g. to wake the outbox worker at once). */
export type JobsQueuedListener = (jobs: readonly OutboxJob[]) => void;

/** An event that no record write carries (a login, a date-relative event), for `engine.emit`. */
export interface EventInput {
  /** The trigger name (`login`, `expiring_2wk`), checked against the catalogue. */
  name: string;
  /** URI of the record it is about, or null. */
  contextUri: string | null;
  /** When it fired (timestamp or date); default now. */
  fireAt?: string;
  /** Once per key and flock: an event whose key is already stored is skipped. */
  dedupeKey?: string;
  /** Custom expiry (timestamp), after `fireAt`; default two years after it. */
  expiresAt?: string;
}

/** What every operation needs: the database, the time and the id source. */
export interface EngineContext {
  storage: Storage;
  clock: Clock;
  ids: IdSource;
  /** Resource type names served in every flock (see schema/resource-types.ts for the default set). */
  resourceTypes: ReadonlySet<string>;
  /** The types served in one flock: `resourceTypes` plus the flock's own (config `resourceTypes`). */
  typesOf(flock: string): ReadonlySet<string>;
  /** The flock's triggers (default: none; events are still recorded, no jobs are queued). */
  triggers: TriggerProvider;
  /** Told after each commit that queued jobs. */
  jobListeners: Set<JobsQueuedListener>;
  /**
   * Who the writes through this context are made for (`engine.withAttribution`); its
   * `storage` then logs it with each write. Absent: not known.
   */
  attribution?: Attribution;
  /** When scans earn a field its index. */
  indexDemand: IndexDemandOptions;
}

/** Options of `createRecordEngine`. Only `storage` is required. */
export interface EngineOptions {
  storage: Storage;
  clock?: Clock;
  ids?: IdSource;
  /** Extra resource type names to serve beside the default set. */
  extraResourceTypes?: string[];
  /** Types served in one flock only, by flock identifier (config `resourceTypes`). */
  flockResourceTypes?: Readonly<Record<string, readonly string[]>>;
  /** The triggers of a flock; without it events are recorded but no actions are queued. */
  triggers?: TriggerProvider;
  /** When scans earn a field its index (config `indexes`); default `INDEX_DEMAND_DEFAULTS`. */
  indexDemand?: IndexDemandOptions;
}

/** What a commit added beside the caller's writes. */
export interface CommitResult {
  /** The data_event records created. */
  events: StoredRecord[];
  /** The outbox jobs queued (new events' actions, and actions whose tag was removed). */
  jobs: OutboxJob[];
}

/** How `commit` treats a change set beside storing it. */
export interface CommitOptions {
  /**
   * Record the data events the record writes imply and queue their triggers' actions.
   * Default true; an import with `--no-events` turns it off (the names are still derived).
   */
  events?: boolean;
  /**
   * Store the records as given: no plan name is looked up and no event recorded. Only for
   * records that were derived and committed elsewhere, with their events and jobs beside
   * them (a copy of a database). Default false.
   */
  verbatim?: boolean;
}

/** The result of an update: the new record and the fields that changed (system ones too). */
export interface UpdateResult {
  record: StoredRecord;
  changed: Record<string, unknown>;
}

/** How an update is checked. */
export interface UpdateOptions {
  /** The version the writer read: the update is refused (409) unless the record is still at it. */
  expectedVersion?: number;
}

/** One uploaded file, before it is stored. */
export interface FileUpload {
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The spec's multipart update answer: `{errors, updates: {<field>: [urls]}}`. */
export interface FileUploadResult {
  errors: Record<string, string>;
  updates: Record<string, string[]>;
  record: StoredRecord;
  files: StoredFile[];
}

/**
 * Reading records and files around the write pipeline, never beside it: every member reads,
 * none writes. Semantics are the `RecordStore` member's of the same name (see
 * storage/record-store.ts); each first checks the flock (and the type it names).
 */
export type RecordReader = Pick<
  RecordStore,
  | "getRecord"
  | "getRecords"
  | "getDisplayValues"
  | "listRecords"
  | "listReferencing"
  | "scanRecords"
  | "listFieldValues"
  | "countFieldValues"
  | "listTicketStock"
  | "summarizeTypes"
> &
  Pick<FileStore, "getFile">;

/** What operators do with the value index's registry (`RecordEngine.indexes`). */
export interface FieldIndexOperations {
  /** Each field's index in `flock`, over the flock's served types and every type a row names. */
  list(flock: string): Promise<FieldIndexView[]>;
  add(flock: string, type: string, field: string): Promise<FieldIndexView>;
  /** 400 for a field the service looks up itself. */
  drop(flock: string, type: string, field: string): Promise<FieldIndexView>;
  /** Hands the field back to the defaults; false when it had no row of its own. */
  reset(flock: string, type: string, field: string): Promise<boolean>;
  /** Config `resourceTypes.<type>.indexes` as every-flock rows; answers how many rows changed. */
  applyConfig(wanted: Readonly<Record<string, readonly string[]>>): Promise<number>;
}

/** The record engine. Every method checks the flock and type exist (404 otherwise). */
export interface RecordEngine {
  readonly context: EngineContext;
  /**
   * The read-only side of the record store (walks, field values, counts, references,
   * files), each member checking the flock and type as `get` and `list` do: what callers
   * outside core read records through instead of Storage.
   */
  readonly read: RecordReader;
  /** Validates `input` for the type, fills system fields, stores, returns the record (state `updated`). */
  create(flock: string, type: string, input: Record<string, unknown>): Promise<StoredRecord>;
  /** Creates several records of one type in one commit: all checked first, all stored or none. */
  createMany(flock: string, type: string, inputs: readonly Record<string, unknown>[]): Promise<StoredRecord[]>;
  /** The record in any state; 404 if absent. */
  get(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** The page of records matching the parsed query. */
  list(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>>;
  /**
   * Applies a partial update; 409 if the record is deleted, or when `opts.expectedVersion`
   * is given and the stored record is at another version (someone else wrote it since).
   */
  update(flock: string, type: string, id: string, patch: Record<string, unknown>, opts?: UpdateOptions): Promise<UpdateResult>;
  delete(flock: string, type: string, id: string): Promise<StoredRecord>;
  restore(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Clears personal data, keeps the record (and its id, dates and state) for audit. */
  obfuscate(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Moves `last_updated` to now. */
  touch(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Recomputes system-generated fields; with `force`, also the records that reference it. */
  recalc(flock: string, type: string, id: string, opts?: { force?: boolean }): Promise<{ status: "OK"; force: boolean; task_id?: string }>;
  /** Stores files and records their URLs in the named fields. */
  attachFiles(flock: string, type: string, id: string, files: FileUpload[]): Promise<FileUploadResult>;
  /**
   * The single-record envelope (create/get shape), with data fields that hold the URI of a
   * record in the same flock expanded to `{display_value, ref}`, and `[null]` for unset list fields.
   */
  toSingle(record: StoredRecord): Promise<Record<string, unknown>>;
  /**
   * Commits many planned writes in one transaction through the engine's commit step (the
   * membership names derived; with `events`, the default, each write's data event and
   * queued actions too), as `create` and `update` do one by one: the batched entry of
   * imports and copies. Update writes are made with `updateWrite` (their `changed` fields
   * decided once). All or nothing.
   */
  writeMany(changes: ChangeSet, opts?: CommitOptions): Promise<CommitResult>;
  /** The stored records of `keys` in `flock` (any state; absent ones left out), for planning writes. */
  getMany(flock: string, keys: readonly RecordKey[]): Promise<StoredRecord[]>;
  /**
   * Records events that no record write carries, with a job per active trigger, in one
   * transaction; events whose `dedupeKey` is already stored in the flock are skipped.
   * Returns the data_event records created.
   */
  emit(flock: string, events: readonly EventInput[]): Promise<StoredRecord[]>;
  /**
   * The flock's committed changes after `opts.since` (default: from now on), replayed and
   * then followed until `opts.signal` aborts: the change feed as an async iterator.
   */
  changes(flock: string, opts?: ChangesOptions): AsyncGenerator<ChangeEvent>;
  /** Calls `listener` after every commit that queued jobs; returns the unsubscribe function. */
  onJobsQueued(listener: JobsQueuedListener): () => void;
  /** The value index's registry as operators use it (indexes/operations.ts). */
  readonly indexes: FieldIndexOperations;
  /**
   * This engine acting for `attribution`: each write through it (records, events, the
   * tasks it queues and, when they run, their writes) is logged with who made it and
   * through which application. Cheap: the server makes one per write request.
   */
  withAttribution(attribution: Attribution): RecordEngine;
}
