/**
 * @module busy
 * What counts as "another connection holds the lock": the one test both the Storage's
 * busy retry (driver.ts) and opening a file (open.ts) apply.
 */

/** SQLITE_BUSY and its extended codes (_SNAPSHOT, _RECOVERY, _TIMEOUT): another connection holds the lock. */
export function isSqliteBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
