/**
 * @module @records-service/sql/testing
 * The property test every SQL adapter runs against core's reference evaluator (needs
 * vitest and fast-check).
 *
 * @example
 * import { runQueryPropertyTests } from "@records-service/sql/testing";
 * runQueryPropertyTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
export { runQueryPropertyTests, type QueryPropertyTestOptions } from "./query-property.js";
