/**
 * @module cli/backup
 * `records-service backup --to DIR [--db FILE] [--keep N]` and `records-service restore
 * FILE [--db FILE] [--force]`: the verified online copy of a SQLite database and its way
 * back (backup/). PostgreSQL is not copied: the commands print pg_dump/pg_restore (exit 2).
 */
import { createBackup } from "../backup/create.js";
import { backupAdvice, restoreAdvice } from "../backup/postgres-advice.js";
import { RestoreRefusedError, restoreBackup } from "../backup/restore.js";
import type { FlockCounts } from "../backup/verify.js";
import { isDatabaseUrl } from "../storage-open.js";
import type { Command } from "./args.js";
import { EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import type { CliIo } from "./io.js";

/** `backup`: one line naming the file, its size, what was verified and what was pruned. */
export async function runBackup(cmd: Extract<Command, { kind: "backup" }>, io: CliIo): Promise<number> {
  if (isDatabaseUrl(cmd.db)) {
    for (const line of backupAdvice(cmd.db, cmd.to, new Date())) io.err(line);
    return EXIT_USAGE;
  }
  const r = await createBackup({ db: cmd.db, dir: cmd.to, keep: cmd.keep });
  const pruned = r.removed.length === 0 ? "" : `; removed ${r.removed.length} older: ${r.removed.join(", ")}`;
  io.out(`records-service backup: ${r.file} (${_size(r.bytes)}), integrity ok, records per flock ${_counts(r.counts)}${pruned}`);
  return EXIT_OK;
}

/** `restore`: refuses a target with data without --force (exit 2); one line with the restored counts. */
export async function runRestore(cmd: Extract<Command, { kind: "restore" }>, io: CliIo): Promise<number> {
  if (isDatabaseUrl(cmd.db)) {
    for (const line of restoreAdvice(cmd.db, cmd.file)) io.err(line);
    return EXIT_USAGE;
  }
  try {
    const counts = await restoreBackup({ file: cmd.file, db: cmd.db, force: cmd.force });
    io.out(`records-service restore: ${cmd.file} restored into ${cmd.db}, integrity ok, records per flock ${_counts(counts)}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof RestoreRefusedError)) throw e;
    io.err(e.message);
    return EXIT_USAGE;
  }
}

// --- internal ---

function _counts(counts: FlockCounts): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? "(no flocks)" : entries.map(([f, n]) => `${f} ${n}`).join(", ");
}

function _size(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
