/**
 * The shared property test of the query compiler (`@records-service/sql/testing`) on
 * SQLite: listRecords and scanRecords agree with core's reference evaluator.
 */
import { runQueryPropertyTests } from "@records-service/sql/testing";
import { createSqliteStorage } from "./driver.js";

// A fixed amount of work (seeded cases): 24 s at load 22 on 2 cores, past vitest's 20 s default
// (it timed out at load 28). The bound only catches a hang.
runQueryPropertyTests({ name: "sqlite :memory:", create: () => createSqliteStorage({ path: ":memory:" }), timeoutMs: 300_000 });
