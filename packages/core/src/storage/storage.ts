/**
 * @module storage/storage
 * The one interface between the pure engine and a database: the intersection of the role
 * interfaces beside it, every member required. Operations read through it, decide in pure
 * code, then hand a `ChangeSet` to `apply`, which commits it atomically with an optimistic
 * version check. Every method that touches the database is async, so an asynchronous
 * adapter (PostgreSQL) fits the same shape as the synchronous better-sqlite3 one.
 */
import type { AccountStore } from "./account-store.js";
import type { ChangeLog } from "./change-log.js";
import type { Connection } from "./connection.js";
import type { FileStore } from "./file-store.js";
import type { FlockStore } from "./flock-store.js";
import type { IndexRegistry } from "./index-registry.js";
import type { JobQueue } from "./job-queue.js";
import type { RecordStore } from "./record-store.js";
import type { SearchIndex } from "./search-index.js";
import type { SharedState } from "./shared-state.js";

/**
 * The database, as the engine sees it.
 * Adapters: `createMemoryStorage()` (the reference, in core), `createSqliteStorage()` and
 * `createPostgresStorage()`. Every adapter must pass `runStorageTests` from
 * `@records-service/core/testing` (one suite per role; a case an adapter cannot support is
 * skipped in its test file, with the reason).
 */
export interface Storage extends RecordStore, IndexRegistry, SearchIndex, FileStore, ChangeLog, JobQueue, FlockStore, AccountStore, SharedState, Connection {}
