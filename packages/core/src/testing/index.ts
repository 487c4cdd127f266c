/**
 * @module @records-service/core/testing
 * Helpers for testing adapters and applications built on core: the Storage conformance
 * suite (needs vitest) and the deterministic clock and id source.
 *
 * @example
 * import { runStorageTests } from "@records-service/core/testing";
 * runStorageTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
export { runStorageTests } from "./storage-suite.js";
export type { StorageTestOptions } from "./storage-suite.js";
export type { OpenShared } from "./shared-state.js";
export { createFakeClock } from "../time.js";
export { createSequentialIds } from "../ids.js";
