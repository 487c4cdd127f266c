/**
 * @module @records-service/core/testing
 * Helpers for testing adapters and applications built on core: the Storage conformance
 * suite (needs vitest) and the deterministic clock and id source.
 *
 * @example
 * import { runStorageTests } from "@records-service/core/testing";
 * runStorageTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
export { runStorageTests } from "./storage/conformance.js";
export type { StorageTestOptions } from "./storage/conformance.js";
export type { OpenShared } from "./storage/conformance-limits.js";
export { createFakeClock } from "./time.js";
export { createSequentialIds } from "./ids.js";
