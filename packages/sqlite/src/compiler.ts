/**
 * @module compiler
 * The shared query compiler (`@records-service/sql`) with SQLite's expressions.
 */
import { createQueryCompiler, sqliteDialect } from "@records-service/sql";

/** List queries as SQLite SQL over `records r` and `record_values`. */
export const compiler = createQueryCompiler(sqliteDialect);
