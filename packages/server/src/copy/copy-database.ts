/**
 * @module copy/copy-database
 * `copyDatabase`: everything of a SQLite database into another Storage (PostgreSQL): flocks,
 * users and keys, settings (the secret, scheduler marks), records with their versions and
 * states, files, data events, tasks and outbox jobs. Records go in insertion order, in
 * batches of one transaction each, so the target lists them in the same order. Safe to run
 * again after an interruption: the small tables are upserts, and a batch skips the records,
 * files and jobs the target already has (ids are unique), so nothing is written twice. It
 * ends by comparing the records per flock, type and state.
 */
import {
  createRecordEngine,
  isRecordsError,
  systemAttribution,
  type ChangeSet,
  type ListQuery,
  type RecordEngine,
  type Storage,
  type StoredRecord,
} from "@records-service/core";
import type { SqliteCopySource } from "@records-service/sqlite";
import { FLAG_DEFAULTS } from "../config/schema.js";

/** Options of `copyDatabase`. */
export interface CopyOptions {
  /** Records per transaction. Default config/schema `FLAG_DEFAULTS.copyBatch` (1,000). */
  batchSize?: number;
  /** Called after each batch with what is done so far (the CLI's progress bar). */
  progress?(p: CopyProgress): void;
  /** Stops after the current batch (tests; a real interruption is a killed process). */
  signal?: AbortSignal;
}

/** Where a copy stands. */
export interface CopyProgress {
  phase: "records" | "files" | "jobs";
  done: number;
  total: number;
}

/** One line of the final comparison. */
interface CountCheck {
  flock: string;
  type: string;
  state: string;
  source: number;
  target: number;
}

/** What a copy did. */
export interface CopyReport {
  copied: { flocks: number; users: number; apiKeys: number; settings: number; records: number; files: number; jobs: number };
  /** Already in the target (a resumed copy). */
  skipped: { records: number; files: number; jobs: number };
  checks: CountCheck[];
  /** True when every count matches. */
  ok: boolean;
  /** True when `signal` stopped it early. */
  aborted: boolean;
}

/**
 * Copies `source` into `target`.
 *
 * @example
 * const report = await copyDatabase(openSqliteSource("records.db"), await createPostgresStorage({ url }));
 */
export async function copyDatabase(source: SqliteCopySource, target: Storage, opts: CopyOptions = {}): Promise<CopyReport> {
  const batch = Math.max(1, opts.batchSize ?? FLAG_DEFAULTS.copyBatch);
  const totals = source.counts();
  const report: CopyReport = {
    copied: { flocks: 0, users: 0, apiKeys: 0, settings: 0, records: 0, files: 0, jobs: 0 },
    skipped: { records: 0, files: 0, jobs: 0 },
    checks: [],
    ok: false,
    aborted: false,
  };
  const stop = () => opts.signal?.aborted === true;
  // Records, files and jobs go in through the engine's commit step, stored as the source
  // holds them (verbatim: they were derived there, and their events and jobs come along).
  const engine = createRecordEngine({ storage: target });
  const write = (changes: ChangeSet) => engine.writeMany(changes, { verbatim: true });

  for (const f of source.flocks()) if (await target.createFlock(f)) report.copied.flocks += 1;
  for (const u of source.users()) {
    await target.putUser(u);
    report.copied.users += 1;
  }
  for (const k of source.apiKeys()) {
    await target.putApiKey(k);
    report.copied.apiKeys += 1;
  }
  for (const s of source.settings()) {
    await target.putSetting(s.name, s.value);
    report.copied.settings += 1;
  }

  let after = 0;
  let done = 0;
  while (!stop()) {
    const { rows, next } = source.records(after, batch);
    if (rows.length === 0) break;
    const fresh = await _missingRecords(engine, rows);
    // The target logs each copied record as one write of the copy (its history before the copy stays in the source).
    if (fresh.length > 0) await write({ records: fresh.map((record) => ({ kind: "insert" as const, record })), attribution: COPY_ATTRIBUTION });
    report.copied.records += fresh.length;
    report.skipped.records += rows.length - fresh.length;
    after = next;
    done += rows.length;
    opts.progress?.({ phase: "records", done, total: totals.records });
  }

  // Files are large: fewer per transaction.
  let fileAfter = "";
  done = 0;
  while (!stop()) {
    const files = source.files(fileAfter, Math.max(1, Math.floor(batch / 10)));
    if (files.length === 0) break;
    const fresh = [];
    for (const f of files) if (!(await target.getFile(f.flock, f.id))) fresh.push(f);
    if (fresh.length > 0) await write({ files: fresh });
    report.copied.files += fresh.length;
    report.skipped.files += files.length - fresh.length;
    fileAfter = files[files.length - 1]!.id;
    done += files.length;
    opts.progress?.({ phase: "files", done, total: totals.files });
  }

  let jobAfter = 0;
  done = 0;
  while (!stop()) {
    const { rows, next } = source.jobs(jobAfter, batch);
    if (rows.length === 0) break;
    try {
      await write({ outbox: rows });
      report.copied.jobs += rows.length;
    } catch (e) {
      if (!isRecordsError(e) || e.code !== "conflict") throw e;
      // A resumed copy: some of these are there already (a batch is all or nothing, so job by job).
      for (const job of rows) {
        try {
          await write({ outbox: [job] });
          report.copied.jobs += 1;
        } catch (inner) {
          if (!isRecordsError(inner) || inner.code !== "conflict") throw inner;
          report.skipped.jobs += 1;
        }
      }
    }
    jobAfter = next;
    done += rows.length;
    opts.progress?.({ phase: "jobs", done, total: totals.jobs });
  }

  report.aborted = stop();
  if (!report.aborted) {
    report.checks = await _compare(source, target);
    report.ok = report.checks.every((c) => c.source === c.target);
  }
  return report;
}

// --- internal ---

const COPY_ATTRIBUTION = systemAttribution("copy");

/** The records of a batch the target does not have yet, in batch order. */
async function _missingRecords(engine: RecordEngine, rows: StoredRecord[]): Promise<StoredRecord[]> {
  const byFlock = new Map<string, StoredRecord[]>();
  for (const r of rows) {
    let list = byFlock.get(r.flock);
    if (!list) byFlock.set(r.flock, (list = []));
    list.push(r);
  }
  const present = new Set<string>();
  for (const [flock, list] of byFlock) {
    for (const r of await engine.getMany(flock, list.map((x) => ({ type: x.type, id: x.id })))) present.add(r.id);
  }
  return rows.filter((r) => !present.has(r.id));
}

/** Records per flock, type and state on both sides. */
async function _compare(source: SqliteCopySource, target: Storage): Promise<CountCheck[]> {
  const checks: CountCheck[] = [];
  for (const c of source.recordCounts()) {
    const q: ListQuery = { filters: [], mode: "AND", states: [c.state as ListQuery["states"][number]], page: 1, pageSize: 0 };
    const { total } = await target.listRecords(c.flock, c.type, q);
    checks.push({ flock: c.flock, type: c.type, state: c.state, source: c.n, target: total });
  }
  return checks;
}
