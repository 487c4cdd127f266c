/**
 * @module bench/lib/seed
 * Seeds (or reuses) a benchmark database: one flock of `size` persons, half as many
 * memberships and a quarter as many reservations referencing them, a core user and a fixed
 * API key, all through `createSqliteStorage(...).apply` in large change sets, so the rows
 * are exactly what the engine would have written. To seed a million persons in minutes,
 * the non-unique indexes of the record tables are dropped while `apply` writes and built
 * again from their own SQL afterwards (an index is a function of its table; seed.test.ts
 * checks the result against a plain `apply` seed). A finished file is described by a JSON
 * sidecar; a file whose sidecar matches size, seed and format is reused as it is.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createIdSource,
  derive,
  formatTimestamp,
  recordUri,
  validateInput,
  type Storage,
  type StoredRecord,
} from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { CONFIG_DEFAULTS } from "../../packages/server/src/config/schema.js";
import Database from "better-sqlite3";
import { BATCH_SIZE, personBatch, seededBytes, TAGS } from "./persons.js";
import type { DatasetSample, SeededDataset } from "./types.js";

/** The flock every benchmark reads. */
export const BENCH_FLOCK = "bench";
/** The bench user's API key (only its hash is stored). Not a secret: a throw-away database. */
export const BENCH_TOKEN = "b".repeat(64);
export const BENCH_USER = "bench@example.org";
/** Bump when what is seeded changes, so old files are seeded again. */
const FORMAT = 2;
/** Created timestamps spread over this many days before the seeding time. */
const SPAN_DAYS = 730;

/** A seeded data set, plus where its sidecar is. */
export interface SeedOutcome {
  dataset: SeededDataset;
  /** True when the file was seeded now, false when reused. */
  seeded: boolean;
  seconds: number;
}

/** Parses "10k", "100k", "1M", "2500" into a count. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (!m) throw new Error(`bad size '${text}': use e.g. 10k, 100k, 1M`);
  const unit = m[2]!.toLowerCase() === "k" ? 1e3 : m[2]!.toLowerCase() === "m" ? 1e6 : 1;
  const n = Math.round(Number(m[1]) * unit);
  if (n < 1000) throw new Error(`size '${text}' is below the smallest data set (1k)`);
  return n;
}

/** "10k", "1M": the short form of a size. */
export function formatSize(n: number): string {
  if (n >= 1e6 && n % 1e6 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 1e3 === 0) return `${n / 1e3}k`;
  return String(n);
}

/** The seeded file for `size` and `seed` under `dataDir`, seeding it first when missing, stale or `fresh`. */
export async function ensureDataset(
  dataDir: string,
  size: number,
  seed: number,
  log: (m: string) => void,
  opts: { fresh?: boolean } = {},
): Promise<SeedOutcome> {
  const file = join(dataDir, `persons-${formatSize(size)}-s${seed}.db`);
  const sidecar = `${file}.json`;
  const started = performance.now();
  if (!opts.fresh && existsSync(file) && existsSync(sidecar)) {
    const meta = JSON.parse(readFileSync(sidecar, "utf8")) as { format: number; dataset: SeededDataset };
    if (meta.format === FORMAT && meta.dataset.size === size && meta.dataset.seed === seed) {
      // Migrated to this version's schema (a file seeded before a migration is still this
      // data set), so scenarios that open it read-only find every table and column.
      await _migrated(file);
      return { dataset: { ...meta.dataset, file }, seeded: false, seconds: 0 };
    }
  }
  for (const f of [file, sidecar, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  log(`seeding ${formatSize(size)} persons (seed ${seed}) into ${file}`);
  const sample = await seedFile(file, size, seed, log);
  const dataset: SeededDataset = { size, file, flock: BENCH_FLOCK, seed, sample };
  writeFileSync(sidecar, JSON.stringify({ format: FORMAT, dataset }, null, 2));
  return { dataset, seeded: true, seconds: (performance.now() - started) / 1000 };
}

/**
 * Writes the data set into a new file and returns its sample. With `deferIndexes` (the
 * default), the record tables' non-unique indexes are built after the rows are written.
 * The file is left checkpointed (no WAL), so a plain copy of it is the whole database.
 * No ANALYZE: the planner sees what it sees on a user's file.
 */
export async function seedFile(
  file: string,
  size: number,
  seed: number,
  log: (m: string) => void,
  opts: { deferIndexes?: boolean; now?: Date } = {},
): Promise<DatasetSample> {
  await createSqliteStorage({ path: file }).close(); // migrate
  const deferred = opts.deferIndexes === false ? [] : _dropDeferrableIndexes(file);
  const sample = await _seed(file, size, seed, log, (opts.now ?? new Date()).getTime());
  const db = new Database(file);
  try {
    if (deferred.length) log(`  building ${deferred.length} indexes`);
    for (const ddl of deferred) db.exec(ddl);
    db.exec("VACUUM"); // the purged change log's pages: a copy of the file is what a deployment holds
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return sample;
}

/**
 * Writes the data set into an empty, migrated `storage` through `apply` (the flock, the
 * bench user and key, then change sets of about 1,750 records) and returns its sample.
 * Creation times run up to `end` (ms), so the newest records are recent. The next change
 * set is generated while the previous one is written (they still commit in order).
 *
 * @example
 * const sample = await seedStorage(createSqliteStorage({ path: "x.db" }), 10_000, 42, console.log, Date.now());
 */
export async function seedStorage(storage: Storage, size: number, seed: number, log: (m: string) => void, end: number): Promise<DatasetSample> {
  const start = end - SPAN_DAYS * 86_400_000;
  const total = size + Math.floor(size / 2) + Math.floor(size / 4);
  let at = new Date(start);
  const clock = { now: () => at };
  const nextId = createIdSource(clock, seededBytes(seed));
  let written = 0;
  const stamp = (): string => {
    at = new Date(start + Math.floor((written / total) * (end - start)));
    written += 1;
    return formatTimestamp(at);
  };
  const record = (type: string, input: Record<string, unknown>): StoredRecord => {
    const { data, displayValue } = derive(type, validateInput(type, input));
    const now = stamp();
    return { id: nextId(), flock: BENCH_FLOCK, type, state: "updated", data, displayValue, created: now, lastUpdated: now, version: 1 };
  };
  const created = formatTimestamp(new Date(start));
  await storage.createFlock({ identifier: BENCH_FLOCK, name: "Benchmark", created });
  await storage.putUser({ username: BENCH_USER, passwordHash: "!disabled", flocks: [BENCH_FLOCK], role: "core", created });
  await storage.putApiKey({ tokenHash: _sha256(BENCH_TOKEN), username: BENCH_USER, created, expires: null });

  const ids: string[] = [];
  const lastNames = new Map<string, number>();
  const every = Math.max(1, Math.floor(size / 500));
  let lastLog = performance.now();
  let writing: Promise<void> = Promise.resolve();
  for (let b = 0; b * BATCH_SIZE < size; b++) {
    const persons = personBatch(seed, b, Math.min(BATCH_SIZE, size - b * BATCH_SIZE));
    const writes: StoredRecord[] = [];
    for (const [i, p] of persons.entries()) {
      const person = record("person", { ...p });
      writes.push(person);
      if ((b * BATCH_SIZE + i) % every === 0) ids.push(person.id);
      if (b === 0) lastNames.set(p.last_name, (lastNames.get(p.last_name) ?? 0) + 1);
      const uri = recordUri(BENCH_FLOCK, "person", person.id);
      const n = b * BATCH_SIZE + i;
      // Every second person holds a membership, every fourth a reservation.
      if (n % 2 === 0) writes.push(record("membership", _membership(uri, n, person.created)));
      if (n % 4 === 1) writes.push(record("reservation", _reservation(uri, n, person.created)));
    }
    await writing;
    writing = storage.apply({ records: writes.map((r) => ({ kind: "insert" as const, record: r })) });
    writing.catch(() => {}); // awaited (and thrown) at the next batch or the end
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`  ${(b + 1) * BATCH_SIZE} / ${size} persons`);
    }
  }
  await writing;
  // A running server keeps the change feed for changes.retentionDays: a data set written
  // over two years holds only the last week of it, as a deployment's database would.
  await storage.purgeChanges(formatTimestamp(new Date(end - CONFIG_DEFAULTS.changes.retentionDays * 86_400_000)));
  const common = [...lastNames].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  return {
    personIds: _shuffle(ids, seed),
    lastName: common,
    lastNamePrefix: common.slice(0, 2).toLowerCase(),
    tag: TAGS[0]!,
    otherTag: TAGS[1]!,
  };
}

// --- internal ---

/** Opens `file` once writable (migrating it) and leaves it checkpointed. */
async function _migrated(file: string): Promise<void> {
  await createSqliteStorage({ path: file }).close();
  const db = new Database(file);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** Tables whose non-unique indexes `apply` maintains but never reads while inserting. */
const _DEFERRABLE_TABLES = ["records", "record_values", "record_refs"];

/** Drops the non-unique indexes of the record tables; returns their CREATE statements. */
function _dropDeferrableIndexes(file: string): string[] {
  const db = new Database(file);
  try {
    const rows = db
      .prepare<string[], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
           AND tbl_name IN (${_DEFERRABLE_TABLES.map(() => "?").join(", ")}) AND sql NOT LIKE 'CREATE UNIQUE%'`,
      )
      .all(..._DEFERRABLE_TABLES);
    for (const r of rows) db.exec(`DROP INDEX "${r.name}"`);
    return rows.map((r) => r.sql);
  } finally {
    db.close();
  }
}

async function _seed(file: string, size: number, seed: number, log: (m: string) => void, end: number): Promise<DatasetSample> {
  const storage = createSqliteStorage({ path: file });
  try {
    return await seedStorage(storage, size, seed, log, end);
  } finally {
    await storage.close();
  }
}

function _membership(member: string, n: number, created: string): Record<string, unknown> {
  const start = created.slice(0, 10);
  const year = Number(start.slice(0, 4)) + 1;
  return {
    member,
    membership_type: ["Standard", "Family", "Concession", "Life"][n % 4],
    status: n % 10 === 0 ? "lapsed" : "active",
    start_date: start,
    end_date: `${year}${start.slice(4)}`,
    amount: [30, 45, 15, 500][n % 4],
  };
}

function _reservation(person: string, n: number, created: string): Record<string, unknown> {
  return {
    person,
    bookable: `Room ${1 + (n % 12)}`,
    date: created.slice(0, 10),
    places: 1 + (n % 3),
    status: n % 7 === 0 ? "cancelled" : "confirmed",
  };
}

function _sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A reproducible shuffle (xorshift), so the sample ids are read in a scattered order. */
function _shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = (seed * 2654435761) >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const j = (s >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
