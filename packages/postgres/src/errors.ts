/**
 * @module errors
 * What a PostgreSQL failure means to the engine: a lost or refused connection (or a
 * server shutting down, or a statement past its timeout) is `RecordsError("unavailable")`,
 * "database unavailable", which the server answers with 503; a duplicate key is a
 * `conflict` (the change set applied nothing; read again and retry), and so is a deadlock
 * or serialization failure outside a transaction (inside one, `transaction` runs it again);
 * anything else is a bug and passes through unchanged.
 */
import { RecordsError, conflict, isRecordsError } from "@records-service/core";

/**
 * "database unavailable": a `RecordsError` with code `unavailable` (503). Clients see only
 * the generic detail; `where` (host:port/database) and `reason` (the driver's message) are
 * for operators: the CLI's one-line start failure and the server's log.
 *
 * @example
 * if (e instanceof DatabaseUnavailableError) console.error(`cannot reach PostgreSQL at ${e.where}: ${e.reason}`);
 */
export class DatabaseUnavailableError extends RecordsError {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super("unavailable", "database unavailable", "the database cannot be reached at the moment; retry later");
  }

  override toString(): string {
    return `database unavailable: PostgreSQL at ${this.where}: ${this.reason}`;
  }
}

/**
 * True when `e` says the database could not be used at all (as opposed to refusing one
 * statement): the connection was refused, lost or timed out, or the server is shutting down.
 *
 * @example
 * isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })) // true
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (isRecordsError(e)) return e.code === "unavailable";
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") {
    if (_NETWORK_CODES.has(code)) return true;
    // SQLSTATE classes 08 (connection exception), 57P0x (shutdown, cannot connect now),
    // 53300 (too many connections) and 57014 (statement timeout / cancelled).
    if (/^08/.test(code) || /^57P0/.test(code) || code === "53300" || code === "57014") return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Connection ended/i.test(
    e.message,
  );
}

/**
 * The storage error for a driver error: "database unavailable" (naming where and why),
 * a conflict for a duplicate key or a lost race, or `e` itself.
 *
 * @example
 * throw toStorageError(e, "127.0.0.1:5432/records");
 */
export function toStorageError(e: unknown, where: string): unknown {
  if (isRecordsError(e)) return e;
  if (isDatabaseUnavailable(e)) return new DatabaseUnavailableError(where, e instanceof Error ? e.message : String(e));
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  if (code === "23505") {
    // One data event per dedupe key (records_dedupe_key_idx): the conflict every adapter reports.
    if ((e as { constraint?: unknown }).constraint === "records_dedupe_key_idx") return conflict("event exists", "a data event with this dedupe_key exists in the flock");
    return conflict("already exists", "a row with this key was written at the same time; read again and retry");
  }
  if (code === "40P01" || code === "40001") {
    return conflict("concurrent change", "another change to the same rows was committed at the same time; read again and retry");
  }
  return e;
}

// --- internal ---

const _NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);
