/**
 * @module testing/storage-suite
 * The Storage conformance suites: one per role interface, and `runStorageTests`, which runs
 * them all. Every adapter runs them, so they all behave like the in-memory reference. They
 * declare vitest tests; call them at the top level of a test file. A case an adapter
 * cannot support is skipped there, with its reason (`StorageTestOptions.skip`).
 *
 * @example
 * // packages/sqlite/src/driver.test.ts
 * runStorageTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
import { describe } from "vitest";
import { describeAccountStore } from "./account-store.js";
import { describeChangeLog } from "./change-log.js";
import { describeConnection } from "./connection.js";
import { describeFileStore } from "./file-store.js";
import { describeFlockStore } from "./flock-store.js";
import { declareSuite, type Harness, type StorageTestOptions } from "./harness.js";
import { describeIndexRegistry } from "./index-registry.js";
import { describeJobQueue } from "./job-queue.js";
import { describeRecordStore } from "./record-store.js";
import { describeSearchIndex } from "./search-index.js";
import { describeSharedState } from "./shared-state.js";

/** Each role interface of `Storage` with its suite, in the order `runStorageTests` runs them. */
const STORAGE_ROLES = {
  RecordStore: describeRecordStore,
  IndexRegistry: describeIndexRegistry,
  SearchIndex: describeSearchIndex,
  FileStore: describeFileStore,
  ChangeLog: describeChangeLog,
  JobQueue: describeJobQueue,
  FlockStore: describeFlockStore,
  AccountStore: describeAccountStore,
  SharedState: describeSharedState,
  Connection: describeConnection,
} as const satisfies Record<string, (h: Harness) => void>;

/** A role interface of `Storage`. */
export type StorageRole = keyof typeof STORAGE_ROLES;

/**
 * Declares every role's conformance tests for one adapter.
 *
 * @example
 * runStorageTests({ name: "memory", create: createMemoryStorage });
 */
export function runStorageTests(opts: StorageTestOptions): void {
  declareSuite(`Storage conformance: ${opts.name}`, opts, (h) => {
    for (const [role, body] of Object.entries(STORAGE_ROLES)) describe(role, () => body(h));
  });
}

/**
 * Declares one role's conformance tests (a Storage is still created for each test: the
 * cases set up their data through other roles, e.g. `createFlock` and `apply`).
 *
 * @example
 * runRoleTests("ChangeLog", { name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
export function runRoleTests(role: StorageRole, opts: StorageTestOptions): void {
  declareSuite(`${role} conformance: ${opts.name}`, opts, STORAGE_ROLES[role]);
}
