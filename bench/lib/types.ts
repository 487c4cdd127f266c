/**
 * @module bench/lib/types
 * The contract between the benchmark runner and its scenario modules. A scenario module
 * (`bench/scenarios/<name>.ts`) exports `scenarios: Scenario[]`; the runner calls each
 * scenario's `run(ctx)` once per seeded size and prints what it returns. Keep this stable:
 * other engineers' scenario modules depend on it.
 */

/** One seeded database the scenarios can read (a copy per scenario is theirs to make). */
export interface SeededDataset {
  /** Persons in the flock (10_000, 100_000, 1_000_000...). */
  readonly size: number;
  /** Absolute path of the seeded SQLite file. Treat as read-only; copy it before writing. */
  readonly file: string;
  /** The flock the persons live in. */
  readonly flock: string;
  /** The faker seed used; the same seed and size produce the same rows. */
  readonly seed: number;
  /** A few real values from the data set, for filters that must match something. */
  readonly sample: DatasetSample;
}

/** The same data set seeded into a PostgreSQL database (`--db postgres`). */
export interface PostgresDataset extends Omit<SeededDataset, "file"> {
  /** URL of the seeded database. Treat as read-only; copy it (`copyDatabase`) before writing. */
  readonly url: string;
  /** Its name on the server (`records_bench_<size>_s<seed>`). */
  readonly database: string;
  /** Seconds seeding through `apply` took when it was seeded (this run or an earlier one). */
  readonly seedSeconds: number;
  /** Seconds of the `VACUUM ANALYZE` after it. */
  readonly vacuumSeconds: number;
  /** When it was seeded (ISO). */
  readonly seededAt: string;
}

/** Values picked from the seeded rows so that filters hit real records. */
export interface DatasetSample {
  /** Ids of existing persons (random order, at least 100). */
  readonly personIds: readonly string[];
  /** A common last name (its exact-match result is non-empty). */
  readonly lastName: string;
  /** A lower-case prefix of 2-3 characters matching many last names. */
  readonly lastNamePrefix: string;
  /** A tag that some persons carry. */
  readonly tag: string;
  /** A second tag, for OR filters. */
  readonly otherTag: string;
}

/** What the runner gives every scenario. */
export interface BenchContext {
  readonly dataset: SeededDataset;
  /** Every size of this run, ascending (a scenario may run only at the largest). */
  readonly sizes: readonly number[];
  /** The repository root (absolute). */
  readonly root: string;
  /** A scratch folder under bench/.data the scenario may write into (created, emptied per run). */
  readonly scratchDir: string;
  /** False when `--no-peer` was given: peers (Directus) must not be started. */
  readonly peers: boolean;
  /** Quick mode scales iterations and durations down (used by tests / smoke runs). */
  readonly quick: boolean;
  /** Progress lines go here (stderr), not to stdout. */
  log(message: string): void;
  /** With `--db postgres`: the PostgreSQL server and the data set seeded on it. */
  readonly postgres?: { readonly server: string; readonly dataset: PostgresDataset };
}

/** One line of the results table. */
export interface ScenarioResult {
  /** Scenario name, e.g. "in-process: exact filter on last_name". */
  readonly scenario: string;
  /** Our figure (null when it could not be measured). */
  readonly ours: number | null;
  /** The baseline's figure: the limit (hand-written SQL, bare Hono) or the peer (null if unavailable). */
  readonly baseline: number | null;
  /** Which baseline ("sql", "hono", "directus", ...). */
  readonly baselineName?: string;
  /** Unit of both figures: "ms" (lower is better), "req/s" or "rec/s" (higher is better), "MB". */
  readonly unit: string;
  /** ours / baseline, whatever the unit (a time ratio above 1 means slower, a rate ratio above 1 faster). Null without a baseline. */
  readonly ratio: number | null;
  /** The target on the ratio, e.g. "<= 1.5" or ">= 0.6", or on the figure, e.g. "< 500 ms" (optional). */
  readonly target?: string;
  /** Whether the target was met (absent when there is no target). */
  readonly met?: boolean;
  /** Result rows the query returns (for growth checks), when it applies. */
  readonly rows?: number;
  /** Why a figure is missing, or anything the reader should know. */
  readonly note?: string;
  /** Where the scenario's data came from (a seeded file, a file made for it and its size...). */
  readonly data?: string;
}

/** A benchmark scenario: the runner calls `run` once per seeded size. */
export interface Scenario {
  /** Short name, unique within its group. */
  readonly name: string;
  /** The group `--only` selects ("in-process", "http", "writes", "start-up", "events", "bulk"...). */
  readonly group: string;
  /** The database it measures, chosen by `--db` (default "sqlite"); "postgres" ones get `ctx.postgres`. */
  readonly db?: "sqlite" | "postgres";
  run(ctx: BenchContext): Promise<ScenarioResult[]>;
}
