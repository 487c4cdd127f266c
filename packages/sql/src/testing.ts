/**
 * @module @records-service/sql/testing
 * The property test every SQL adapter runs against core's reference evaluator (needs
 * vitest and fast-check), and the fixtures and cases both adapters' own tests share
 * (the scan window's walk, the equality page's special cases).
 *
 * @example
 * import { runQueryPropertyTests } from "@records-service/sql/testing";
 * runQueryPropertyTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
export { runQueryPropertyTests, type QueryPropertyTestOptions } from "./query-property.js";
export {
  testRecord,
  insertsOf,
  SCAN_WINDOW_CASES,
  scanWindowRecords,
  expectScanWindowWalk,
  equalityPageRecords,
  equalityPageTests,
  dateCutRecords,
  DATE_CUT_ROW_CASES,
  expectFieldIndexProgress,
  type ScanStep,
} from "./adapter-cases.js";
export { INDEX_PLAN_CASES, PAGING_PLAN_CASES, MATCH_COUNT_PLAN_CASES, type PlanCase } from "./plan-cases.js";
export { runTicketStockPropertyTests, storeFillTickets, type TicketStockPropertyTestOptions } from "./ticket-stock-property.js";
