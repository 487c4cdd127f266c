/**
 * The shared property test of the query compiler (`@records-service/sql/testing`) on
 * SQLite: listRecords and scanRecords agree with core's reference evaluator.
 */
import { runQueryPropertyTests } from "@records-service/sql/testing";
import { createSqliteStorage } from "./driver.js";

runQueryPropertyTests({ name: "sqlite :memory:", create: () => createSqliteStorage({ path: ":memory:" }) });
