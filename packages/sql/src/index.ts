/**
 * @module @records-service/sql
 * What both SQL adapters share: the query compiler (a list query tree as drizzle `sql`,
 * with one small table of what differs between SQLite and PostgreSQL, dialects.ts) and
 * the text order helpers it relies on; what a record contributes to the value index; and
 * the decisions both make alike, as plans and row mappings they only run (read-plan,
 * record-rows, change-history, outbox-rows, change-purge, limit-rows).
 *
 * @example
 * import { createQueryCompiler, postgresDialect } from "@records-service/sql";
 * const compiler = createQueryCompiler(postgresDialect);
 */
export {
  createQueryCompiler,
  type QueryCompiler,
  type FieldIdLookup,
  type FieldSource,
  type ScannedField,
  type FilterForm,
  type PageSpec,
} from "./compile.js";
export { renderWith, SQLITE_PLACEHOLDER, POSTGRES_PLACEHOLDER, type RenderedSql } from "./render.js";
export { sqliteDialect, postgresDialect, PG_VALUE_KEY_BYTES, type SqlDialect, type ValueColumn } from "./dialects.js";
export { CMP16, prefixUpperBound } from "./text-order.js";
export { valueRows, refTargets, entriesOf, isStampText, ENTRIES, type ValueRow } from "./index-rows.js";
export {
  lazyWhere,
  countPlan,
  pagePlan,
  pageStatement,
  sortNumbersProbe,
  statesHeld,
  idsByType,
  inAskedOrder,
  scanCursorFrom,
  scanStepStatement,
  takeScanRows,
  cursorBefore,
  fieldValuesStatement,
  toFieldValuesRow,
  fieldCountsStatement,
  toFieldCountRows,
  type CountPlan,
  type ScanTake,
} from "./read-plan.js";
export {
  OUTBOX_COLUMNS,
  jobFromRow,
  byDueThenId,
  jobCount,
  retryOutcome,
  finishOutcome,
  outboxStatsOf,
  type OutboxRow,
} from "./outbox-rows.js";
export { changeHistoryWhere, oldestChangeWhere, historyChangeFromRow, type HistoryRow } from "./change-history.js";
export { recordFromRow, listedRecordFromRow, filterFields, type RecordRow } from "./record-rows.js";
export { removedByState } from "./change-purge.js";
export {
  createLimitPurgeClock,
  limitUpdate,
  limitListSize,
  LIMIT_PURGE_BATCH,
  type LimitPurgeClock,
  type LimitWrite,
} from "./limit-rows.js";
