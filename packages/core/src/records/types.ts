/**
 * @module records/types
 * The record engine's public shape. `createRecordEngine()` (records/engine.ts) returns a
 * `RecordEngine`; the HTTP server and in-process users call only these methods.
 */
import type { IdSource } from "../ids.js";
import type { ListPage, ListQuery } from "../query/types.js";
import type { Storage, StoredFile, StoredRecord } from "../storage/types.js";
import type { Clock } from "../time.js";

/** What every operation needs: the database, the time and the id source. */
export interface EngineContext {
  storage: Storage;
  clock: Clock;
  ids: IdSource;
  /** Resource type names served (see schema/resource-types.ts for the default set). */
  resourceTypes: ReadonlySet<string>;
}

/** Options of `createRecordEngine`. Only `storage` is required. */
export interface EngineOptions {
  storage: Storage;
  clock?: Clock;
  ids?: IdSource;
  /** Extra resource type names to serve beside the default set. */
  extraResourceTypes?: string[];
}

/** The result of an update: the new record and the fields that changed (system ones too). */
export interface UpdateResult {
  record: StoredRecord;
  changed: Record<string, unknown>;
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

/** The record engine. Every method checks the flock and type exist (404 otherwise). */
export interface RecordEngine {
  readonly context: EngineContext;
  /** Validates `input` for the type, fills system fields, stores, returns the record (state `updated`). */
  create(flock: string, type: string, input: Record<string, unknown>): Promise<StoredRecord>;
  /** The record in any state; 404 if absent. */
  get(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** The page of records matching the parsed query. */
  list(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>>;
  /** Applies a partial update; 409 if the record is deleted. */
  update(flock: string, type: string, id: string, patch: Record<string, unknown>): Promise<UpdateResult>;
  delete(flock: string, type: string, id: string): Promise<StoredRecord>;
  restore(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Clears personal data, keeps the record (and its id, dates and state) for audit. */
  obfuscate(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Moves `last_updated` to now. */
  touch(flock: string, type: string, id: string): Promise<StoredRecord>;
  /** Recomputes system-generated fields; with `force`, also the records that reference it. */
  recalc(flock: string, type: string, id: string, opts?: { force?: boolean }): Promise<{ status: "OK"; force: boolean }>;
  /** Stores files and records their URLs in the named fields. */
  attachFiles(flock: string, type: string, id: string, files: FileUpload[]): Promise<FileUploadResult>;
  /**
   * The single-record envelope (create/get shape), with data fields that hold the URI of a
   * record in the same flock expanded to `{display_value, ref}`, and `[null]` for unset list fields.
   */
  toSingle(record: StoredRecord): Promise<Record<string, unknown>>;
}
