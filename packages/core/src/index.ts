/**
 * @module @records-service/core
 * The Records Service engine: records, schemas, the query language and the state machine
 * as pure functions over the `Storage` interface. Nothing here imports Node, SQLite or
 * HTTP code; time and ids are injected.
 *
 * @example
 * import { createMemoryStorage, createRecordEngine } from "@records-service/core";
 * const engine = createRecordEngine({ storage: createMemoryStorage() });
 */

// --- errors ---
export { RecordsError, isRecordsError, badRequest, notFound, conflict } from "./errors.js";
export type { ErrorLink, RecordsErrorCode } from "./errors.js";

// --- time ---
export { systemClock, createFakeClock, formatTimestamp, formatSeconds, formatDate, parseTimestamp } from "./time.js";
export type { Clock } from "./time.js";

// --- ids ---
export { isRecordId, createIdSource, createSequentialIds } from "./ids.js";
export type { IdSource } from "./ids.js";

// --- query: types, parser, smart dates, limits, evaluator, entries ---
export { META_FIELDS, MODIFIERS, V2_ONLY_MODIFIERS } from "./model/query.js";
export type { Modifier, MetaField, FilterValue, Filter, RecordState, ListQuery, ListPage, ListSort } from "./model/query.js";
export { parseListQuery } from "./query/parse.js";
export type { ParseOptions } from "./query/parse.js";
export { resolveSmartDate, SMART_DATES } from "./query/smart-dates.js";
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_TEXT_VALUE_LENGTH,
  MAX_PAGE,
  MAX_FILTERS,
  MAX_FIELD_NAME_LENGTH,
  MAX_LIST_ENTRIES,
  MAX_FIELDS_PER_RECORD,
  MAX_VALUES_PER_RECORD,
  MAX_RECORD_DATA_LENGTH,
  MAX_FILE_NAME_LENGTH,
  MAX_CONTENT_TYPE_LENGTH,
  MAX_LIST_ANSWER_LENGTH,
  /** @public documented in docs/security.md */ MAX_DISPLAY_VALUE_LENGTH,
} from "./query/limits.js";
export { evaluateList, matchesQuery } from "./query/evaluate.js";
export { toEntries } from "./query/entries.js";
export type { Entry } from "./query/entries.js";

// --- schema: resource types, person, input, list entries, display, references, envelopes ---
export {
  DEFAULT_RESOURCE_TYPES,
  RESERVED_TYPE_NAMES,
  RESOURCE_TYPE_RE,
  assertServedType,
  CONTACT_TYPE,
  CONTACT_TYPES,
} from "./schema/resource-types.js";
export {
  PERSON_FIELDS,
  /** @public documented in README.md */ salutation,
} from "./schema/person.js";
export type { PersonFieldKind } from "./schema/person.js";
export { PersonInputSchema, /** @public documented in docs/client.md */ validatePersonInput } from "./schema/person-input.js";
export { validateInput } from "./schema/input.js";
export { personRowData, withoutGeneratedNames } from "./schema/person-row.js";
export { primaryEntry } from "./schema/list-entries.js";
export type { ListEntry } from "./schema/list-entries.js";
export { displayValueOf, cutDisplayValue } from "./schema/display.js";

// --- contacts: sub-resources, memberships of a contact, status by email, the contact type ---
export {
  membershipsOf,
  isActiveOn,
  membershipEntry,
  membershipSummaryEntry,
} from "./contacts/memberships.js";
export { communicationsDetail, personalDetail, contactSummary } from "./contacts/detail.js";
export { membershipStatus } from "./contacts/membership-status.js";
export { listContacts, getContact } from "./contacts/contact-list.js";

// --- search: the index document and query terms every adapter shares, ranking ---
export {
  SEARCH_TYPES,
  /** @public documented in docs/security.md */ MAX_SEARCH_TERMS,
  MAX_SEARCH_LENGTH,
  searchDocument,
  searchDocumentMayChange,
  searchTerms,
} from "./search/search-text.js";
export { searchContacts, searchResult, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "./search/search.js";
export type { SearchResult } from "./search/search.js";
export { findContacts } from "./search/find.js";
export { SEARCH_MERGE_BATCH, SEARCH_MERGE_INTERVAL_MS } from "./search/merge.js";
export type { FindRule, FindResult } from "./search/find.js";

// --- audit: change history from the change log and the data events, provenance ---
export { AUDIT_ACTIONS, MAX_AUDIT_LIMIT } from "./audit/entries.js";
export type { AuditAction, AuditEntry } from "./audit/entries.js";
export { recordHistory } from "./audit/record-history.js";
export type { RecordHistory } from "./audit/record-history.js";
export { flockHistory } from "./audit/flock-history.js";
export type { FlockHistoryOptions } from "./audit/flock-history.js";
export { recordProvenance } from "./audit/provenance.js";
export type { Provenance } from "./audit/provenance.js";

// --- aggregates: group-by counts, distinct values, picker look-ups ---
export { groupCount, distinctValues, GROUP_PERIODS, type GroupPeriod, lookupEntries, DEFAULT_LOOKUP_LIMIT, MAX_LOOKUP_LIMIT } from "./aggregates/group.js";
export type { GroupCount } from "./aggregates/group.js";
export {
  recordUri,
  parseRecordUri,
  isRecordUri,
  keepsReferences,
  referencedKeys,
} from "./schema/references.js";
export type { RecordUri } from "./schema/references.js";
export { singleEnvelopeText, toSingleEnvelope, toListElement, toListWrapper } from "./schema/envelope.js";
export {
  dataBudget,
  listAnswerText,
  LIST_ELEMENT_MIN_OVERHEAD,
} from "./schema/list-answer.js";
export type { ListAnswerOptions } from "./schema/list-answer.js";
export { checkReservedFieldNames, checkRecordLimits, FIELD_NAME_RE } from "./schema/record-limits.js";
export type { SingleEnvelope, ListElement, ListWrapper } from "./schema/envelope.js";

// --- state ---
export type { RecordOperation, FromState, TransitionRow } from "./state/transitions.js";

// --- records engine ---
export { createRecordEngine } from "./records/engine.js";
export { createRecordReader } from "./records/reader.js";
export { fileUrl } from "./records/files.js";
export { RECALC_REFERENCING_LIMIT } from "./records/recalculated.js";
export { derive, updateWrite } from "./records/revise.js";
export { planUpdate } from "./records/update.js";
export { WRITE_REPLANS } from "./records/replan.js";
export { plannedMove } from "./records/lifecycle.js";
export type { CommitOptions, CommitResult } from "./records/commit.js";
export type {
  EngineContext,
  EngineOptions,
  EventInput,
  TriggerProvider,
  JobsQueuedListener,
  UpdateResult,
  UpdateOptions,
  FileUpload,
  FileUploadResult,
  RecordEngine,
  RecordReader,
} from "./records/types.js";

// --- storage: the role interfaces, their helpers, and the reference adapter ---
export { createMemoryStorage } from "./memory/memory.js";
export { cutDates, fieldValuesKey, requireDateCuts, requireFieldNames } from "./schema/field-values.js";
export { retryWhileBusy, busyRetryCount, type BusyRetryOptions } from "./storage/busy-retry.js";
export { withLease, listLeases, newLeaseOwner, LEASE_KEY_PREFIX, type LeaseOptions, type LeaseResult, type LeaseInfo } from "./storage/lease.js";
export type { Storage } from "./storage/storage.js";
export type { RecordStore, DisplayValueRow, TypeSummary, ScanQuery, ScanPage, FieldValuesRow, FieldCountRow, DateCut } from "./storage/record-store.js";
export type { SearchIndex } from "./storage/search-index.js";
export type { IndexRegistry } from "./storage/index-registry.js";
export { INDEX_DEMAND_DEFAULTS, type IndexDemandOptions } from "./indexes/demand.js";
export type { FileStore } from "./storage/file-store.js";
export type { ChangeLog, ChangePage, ChangeHistoryQuery, ChangeHistoryPage } from "./storage/change-log.js";
export type { JobQueue, JobClaim, OutboxJobUpdate, OutboxJobFilter, OutboxStats } from "./storage/job-queue.js";
export type { FlockStore } from "./storage/flock-store.js";
export type { AccountStore } from "./storage/account-store.js";
export type { SharedState, LimitRow, LimitChange, LimitEntry } from "./storage/shared-state.js";
export type { Connection, PoolStats } from "./storage/connection.js";

// --- model: what storage holds (no I/O) ---
export type { FlockRow, UserRow, ApiKeyRow } from "./model/account.js";
export type { StoredRecord, RecordKey } from "./model/record.js";
export { recordOfDataText } from "./model/record.js";
export type { StoredFile, FileOwner } from "./model/file.js";
export type { OutboxJob, OutboxStatus } from "./model/outbox.js";
export type { RecordWrite, ChangeSet } from "./model/change-set.js";
export type { ChangeRow, HistoryChange } from "./model/change.js";
export { TICKET_TYPE, TICKET_STOCK_FIELDS, ticketCounts, ticketReserved, ticketUnits, wholeNumber, refUri, ticketStockOf, ticketStockDelta, TicketStockDeltas } from "./model/ticket-stock.js";
export type { TicketStockRow } from "./model/ticket-stock.js";
export { EVERY_FLOCK, compareFieldIndexRows, isEngineField, isIndexedByDefault, rulingRow, writesIndex, readsIndex } from "./model/field-index.js";
export type { FieldIndexView, FieldIndexRow, FieldIndexState, FieldIndexSource, FieldIndexWish, FieldIndexStatus } from "./model/field-index.js";

// --- change feed ---
export { changeOf, byFlock, changeFromRow } from "./changes/change-of.js";
export { changePurgeWindowEnd } from "./changes/purge-window.js";
export { systemAttribution } from "./model/attribution.js";
export type { Attribution, SystemWriter } from "./model/attribution.js";
export type { PendingChange, ChangeTableRow } from "./changes/change-of.js";
export { openChanges } from "./changes/feed.js";
export type { ChangeEvent, ChangeFeedStore, ChangesOptions, OpenedChanges } from "./changes/feed.js";
export { createChangeHub, sharedChangeHub } from "./changes/hub.js";
export type { ChangeHub, ChangeHubOptions, ChangeHubStats, ChangeWatchStore, HeadWatch } from "./changes/hub.js";

// --- events ---
export { EVENT_CATALOGUE } from "./events/catalogue.js";
export type { Modifier as EventModifier } from "./events/modifiers.js";
export type {
  Catalogue,
  EventEntry,
  EventGroup,
  EventTiming,
  EventCondition,
  VariationEntry,
  VariationPattern,
} from "./events/types.js";
export {
  parseTriggerName,
} from "./events/trigger-names.js";
export type { ParsedTrigger } from "./events/trigger-names.js";
export { dueEvents, dueWindows, dedupeKey, dueDailyFireTime } from "./events/due.js";
export type { DueEvent, DueOptions, DueWindow, DueWindowTimes, TriggerWindow } from "./events/due.js";
export {
  PAYMENT_PRECEDENCE,
} from "./events/payment.js";
export type { PaymentEvent, PaymentReference } from "./events/payment.js";
export {
  hasActionRun,
  tagsWithAction,
  DATA_EVENT_TYPE,
  dedupeKeyText,
} from "./events/data-event.js";
export type { DataEventData, DataEventInput } from "./events/data-event.js";
export { purgeExpiredEvents } from "./events/purge.js";
export type { PurgeOptions } from "./events/purge.js";
export type { EventPlan, PlannedEvent, PlannedRequeue } from "./events/emit.js";

// --- triggers ---
export {
  validateTriggers,
  webhookUrlProblem,
  triggersView,
  TriggerEntrySchema,
} from "./triggers/config.js";
export type {
  TriggerAction,
  TriggerConfig,
  TriggerEntryInput,
  TriggerValidationOptions,
  TriggerView,
} from "./triggers/config.js";
export { addressRange, isLoopbackName, targetHost, PRIVATE_TARGETS_RULE, type AddressRange } from "./triggers/target-address.js";
export { redactUrl } from "./triggers/redact-url.js";
export {
  pickTemplate,
  referencesToResolve,
} from "./triggers/conditional-templates.js";
export type {
  ConditionalTemplateRule,
  ConditionalTemplateRules,
  ConditionValue,
  TemplateContext,
  NameResolver,
} from "./triggers/conditional-templates.js";

// --- actions ---
export {
  nextAttemptAt,
  isDeliverySuccess,
  DEFAULT_RETRY_POLICY,
} from "./actions/retry.js";
export type { RetryPolicy, RandomSource } from "./actions/retry.js";
export { relatedContactUri, isContactUri } from "./actions/contact.js";
export type { ActionHandler, ActionRunContext, ActionOutcome, WebhookPayload } from "./actions/types.js";

// --- tasks: long operations as core_event records, run a chunk at a time ---
export { TASK_CHUNK_DATA_LENGTH } from "./tasks/types.js";
export type { TaskState, TaskCounts, TaskView, TaskStep, TaskKind } from "./tasks/types.js";
export {
  createTask,
  runTaskChunk,
  runTask,
  failTask,
  findActiveTasks,
  TASK_CHUNK_SIZE,
} from "./tasks/run.js";
export type { TaskOptions, TaskRunOptions, TaskChunkResult, ActiveTask } from "./tasks/run.js";
export { createTaskRegistry, DEFAULT_TASK_KINDS } from "./tasks/registry.js";
export type { TaskRegistry } from "./tasks/registry.js";
export {
  BulkActionBodySchema,
} from "./tasks/bulk-params.js";
export type { BulkActionName, BulkActionBody, BulkParams } from "./tasks/bulk-params.js";
;
;
export type { LookupQuery, LookupOptions } from "./tasks/lookup-query.js";
