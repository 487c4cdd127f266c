/**
 * @module cli/copy
 * `records-service copy --from PATH --to postgres://... [--resume] [--batch N]`: moves a
 * deployment off its SQLite file (see copy/copy-database.ts), with a progress bar on
 * stderr and the comparison of counts on stdout.
 */
import { existsSync } from "node:fs";
import { createPostgresStorage } from "@records-service/postgres";
import { copyDatabase, type CopyProgress } from "../copy/copy-database.js";
import { openSqliteCopySource } from "@records-service/sqlite";
import { describeDb } from "../storage-open.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";

/** Runs the copy; exit 0 when every count matches. */
export async function runCopy(cmd: Extract<Command, { kind: "copy" }>, io: CliIo): Promise<number> {
  if (!existsSync(cmd.from)) {
    io.err(`records-service copy: no database at ${cmd.from} (check --from)`);
    return EXIT_FAILED;
  }
  const source = openSqliteCopySource(cmd.from);
  if (source.migrated.length > 0) {
    io.err(
      `records-service copy: ${cmd.from} was written by an older version; copying it as this version's migrations ` +
        `(${source.migrated.join(", ")}) leave it, from a snapshot in the temporary folder (the file stays as it is)`,
    );
  }
  try {
    const target = await createPostgresStorage({ url: cmd.to }, { watchChanges: false, poolSize: 2 });
    try {
      const flocks = (await target.listFlocks()).length;
      if (flocks > 0 && !cmd.resume) {
        io.err(
          `records-service copy: ${describeDb(cmd.to)} is not empty (${flocks} flocks); add --resume to go on with an interrupted copy`,
        );
        return EXIT_FAILED;
      }
      const report = await copyDatabase(source, target, { batchSize: cmd.batchSize, progress: progressBar(io.err) });
      io.out(
        `copied ${report.copied.flocks} flocks, ${report.copied.users} users, ${report.copied.apiKeys} keys, ` +
          `${report.copied.settings} settings, ${report.copied.records} records, ${report.copied.files} files, ${report.copied.jobs} jobs` +
          (cmd.resume ? ` (already there: ${report.skipped.records} records, ${report.skipped.files} files, ${report.skipped.jobs} jobs)` : ""),
      );
      for (const c of report.checks) {
        io.out(`${c.flock}/${c.type} ${c.state}: ${c.source} in the file, ${c.target} in PostgreSQL${c.source === c.target ? "" : "  MISMATCH"}`);
      }
      io.out(report.ok ? "every count matches" : "counts differ: see MISMATCH above");
      return report.ok ? EXIT_OK : EXIT_FAILED;
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/**
 * A progress bar as lines on stderr (it may not be a terminal): one per 5% of each phase.
 *
 * @example
 * progressBar(console.error)({ phase: "records", done: 500, total: 1000 }); // "records [##########          ]  50% 500/1000"
 */
function progressBar(err: (line: string) => void): (p: CopyProgress) => void {
  const shown = new Map<string, number>();
  return (p) => {
    const pct = p.total === 0 ? 100 : Math.min(100, Math.floor((p.done / p.total) * 100));
    const step = Math.floor(pct / 5);
    if (shown.get(p.phase) === step) return;
    shown.set(p.phase, step);
    const bar = "#".repeat(step) + " ".repeat(20 - step);
    err(`${p.phase.padEnd(7)} [${bar}] ${String(pct).padStart(3)}% ${p.done}/${p.total}`);
  };
}
