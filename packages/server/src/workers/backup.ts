/**
 * @module workers/backup
 * Scheduled backups (config `backup: { cron, dir, keep }`): a croner job (UTC, seconds
 * allowed) that makes the same verified copy as `records-service backup` (backup/create).
 *
 * Several processes on one database each run this worker, so each occurrence of the
 * schedule is claimed once, in the database: a tick takes the `backup` lease (as the
 * scheduler takes its own; renewed while the copy runs, the copy stops if it is lost) and,
 * holding it, marks its occurrence done in the `backup:occurrence` row. A process whose
 * tick comes after another already made that occurrence's backup finds the mark and does
 * nothing; one whose tick comes while the copy runs finds the lease held. One backup per
 * occurrence whichever process makes it, and none twice.
 *
 * It copies SQLite files only: on PostgreSQL (or `:memory:`) it says so once at start and
 * does nothing (docs/deploy.md shows pg_dump).
 */
import { withLease } from "@records-service/core";
import { Cron } from "croner";
import { createBackup, type BackupReport } from "../backup/create.js";
import { isDatabaseUrl } from "../storage-open.js";
import { leaseOwnerGone, processLeaseOwner, type Worker, type WorkerContext, type WorkerFactory } from "../runtime/workers.js";

/** The lease a backup run holds (`records-service jobs` lists it while held). */
const BACKUP_LEASE = "backup";
/** The limit row holding the last schedule occurrence whose backup was started. */
const BACKUP_OCCURRENCE_KEY = "backup:occurrence";
/** How long the occurrence mark is kept: longer than any sensible schedule's period. */
const OCCURRENCE_KEEP_MS = 400 * 24 * 3600_000;

/** Options of `createBackupWorker` (tests). */
export interface BackupWorkerOptions {
  /** Wall-clock time (backups are named and scheduled by real time, even under a manual clock). Default `new Date()`. */
  now?: () => Date;
}

/**
 * The backup worker for `startServer` (does nothing without a `backup` config section).
 *
 * @example
 * await startServer({ db: "./data/records.db", host: "127.0.0.1", port: 0, config, workers: [backupWorker] });
 */
export const backupWorker: WorkerFactory = (ctx) => createBackupWorker(ctx);

/** Builds the backup worker; `start` schedules it, `stop` waits for a copy in progress. */
export function createBackupWorker(ctx: WorkerContext, options: BackupWorkerOptions = {}): Worker {
  const settings = ctx.settings.backup;
  const now = options.now ?? (() => new Date());
  let job: Cron | undefined;
  let running: Promise<void> | undefined;
  return {
    name: "backup",
    start() {
      // Nothing to schedule: not a running worker (health and metrics do not list it).
      if (!settings) return false;
      const db = ctx.db;
      if (db === undefined || db === ":memory:" || isDatabaseUrl(db)) {
        ctx.out(`backup: the config's backup section copies SQLite files; ${db === undefined || db === ":memory:" ? "an in-memory database has none" : "for PostgreSQL use pg_dump (docs/deploy.md, Backups)"}: no backups are made`);
        return false;
      }
      job = new Cron(settings.cron, { protect: true, timezone: "UTC" }, async (self: Cron) => {
        running = runBackupOccurrence(ctx, db, _occurrence(self, now()), now).then(
          (report) => report && ctx.out(_describe(report)),
          (e: unknown) => ctx.out(`backup: failed: ${e instanceof Error ? e.message : String(e)}`),
        );
        await running;
      });
    },
    async stop() {
      job?.stop();
      await running;
    },
  };
}

/**
 * Makes the backup of schedule occurrence `occurrence` unless another process has (or is
 * making) it; resolves with the report, or undefined when it was not this process's to make.
 */
export async function runBackupOccurrence(ctx: WorkerContext, db: string, occurrence: string, now: () => Date): Promise<BackupReport | undefined> {
  const settings = ctx.settings.backup!;
  const held = await withLease(
    ctx.storage,
    BACKUP_LEASE,
    { ttlMs: ctx.settings.workers.leaseMs, clock: ctx.clock, owner: processLeaseOwner(), isGone: leaseOwnerGone },
    async (lost) => {
      let mine = false;
      const at = ctx.clock.now().getTime();
      await ctx.storage.updateLimit(BACKUP_OCCURRENCE_KEY, at, (done) => {
        if (done !== undefined && done >= occurrence) return undefined;
        mine = true;
        return { value: occurrence, expiresAt: at + OCCURRENCE_KEEP_MS };
      });
      if (!mine) return undefined;
      return createBackup({ db, dir: settings.dir, keep: settings.keep, now, signal: lost });
    },
  );
  return held.acquired ? held.value : undefined;
}

// --- internal ---

/** The schedule occurrence a tick at `at` belongs to (the latest at or before it), as an ISO string. */
function _occurrence(job: Cron, at: Date): string {
  return (job.previousRuns(1, new Date(at.getTime() + 1))[0] ?? at).toISOString();
}

function _describe(r: BackupReport): string {
  const flocks = Object.entries(r.counts).map(([f, n]) => `${f} ${n}`).join(", ") || "(no flocks)";
  return `backup: ${r.file} (${r.bytes} bytes), integrity ok, records per flock ${flocks}${r.removed.length ? `; removed ${r.removed.join(", ")}` : ""}`;
}
