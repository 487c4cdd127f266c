/**
 * @module cli/jobs
 * `records-service jobs [--db PATH] [--status S] [--flock ID] [--limit N]`: the outbox
 * for operators, one line per job, newest first (a job a process is attempting shows when
 * its claim lapses), then the workers' leases held at the moment (the scheduler's run,
 * the search index's merging, the tasks being run), each with its holder and lapse time.
 */
import { listLeases, type LeaseInfo, type OutboxJob } from "@records-service/core";
import type { Command } from "./args.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Prints the jobs as aligned columns (or `no jobs`). */
export async function runJobs(cmd: Extract<Command, { kind: "jobs" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    const jobs = await storage.listJobs({
      limit: cmd.limit,
      ...(cmd.status ? { status: cmd.status } : {}),
      ...(cmd.flock ? { flock: cmd.flock } : {}),
    });
    if (jobs.length === 0) io.out("no jobs");
    else for (const line of formatJobs(jobs)) io.out(line);
    for (const line of formatLeases(await listLeases(storage, Date.now()))) io.out(line);
    return EXIT_OK;
  });
}

/** The table: a header, then one row per job; the last error ends each row, unpadded. */
export function formatJobs(jobs: readonly OutboxJob[]): string[] {
  const header = ["CREATED", "STATUS", "ATTEMPTS", "NEXT ATTEMPT", "LAST", "FLOCK", "TRIGGER", "ACTION", "DELIVERY", "CLAIMED UNTIL", "LAST ERROR"];
  const rows = jobs.map((j) => [
    j.created.slice(0, 19),
    j.status,
    String(j.attempts),
    j.status === "pending" ? j.nextAttemptAt.slice(0, 19) : "-",
    j.lastStatus === null ? "-" : String(j.lastStatus),
    j.flock,
    j.trigger,
    j.action,
    j.deliveryId,
    j.claimedUntil ? j.claimedUntil.slice(0, 19) : "-",
    (j.lastError ?? "").replace(/\s+/g, " "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** One line per live lease: `lease NAME held by OWNER until TIME` (UTC). */
export function formatLeases(leases: readonly LeaseInfo[]): string[] {
  return leases.map((l) => `lease ${l.name} held by ${l.owner} until ${new Date(l.expiresAt).toISOString().slice(0, 19)}`);
}
