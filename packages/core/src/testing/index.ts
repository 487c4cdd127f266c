/**
 * @module @records-service/core/testing
 * Helpers for testing adapters and applications built on core: the Storage conformance
 * suites, one per role interface (they need vitest), and the deterministic clock and id
 * source.
 *
 * @example
 * import { runStorageTests } from "@records-service/core/testing";
 * runStorageTests({
 *   name: "sqlite",
 *   create: () => createSqliteStorage({ path: ":memory:" }),
 *   skip: [{ reason: "why this adapter cannot", tests: ["a test or group name"] }],
 * });
 */
export { runStorageTests } from "./storage-suite.js";
export type { StorageRole } from "./storage-suite.js";
export type { StorageTestOptions, SkipEntry, OpenShared } from "./harness.js";
;
