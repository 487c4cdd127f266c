/**
 * @module workers/leased-test-helpers
 * Set-up for the leased workers' tests (index build, search merge): two processes'
 * Storages on one SQLite file with flock `demo`, a worker context for each (leases of
 * 300 ms, so a stopped holder's lease lapses quickly), and the lines the workers printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordEngine, systemClock, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { parseConfig } from "../config.js";
import type { WorkerContext } from "../runtime/workers.js";
import { resolveSettings } from "../settings.js";

/** Two processes on one database file. */
export interface TwoProcesses {
  /** The database file, for a third (read-only) connection's checks. */
  path: string;
  a: Storage;
  b: Storage;
  /** A worker context over `storage` (an engine of its own), printing into `out`. */
  ctx(storage: Storage): WorkerContext;
  /** What the workers printed. */
  out: string[];
  /** Closes both Storages and removes the file. */
  close(): Promise<void>;
}

/**
 * Opens a fresh file (in a temporary folder named after `name`) from two Storages and
 * creates flock `demo`.
 *
 * @example
 * const t = await openTwoProcesses("search-merge");
 * const worker = createSearchMergeWorker(t.ctx(t.a), { intervalMs: 20, batch: 7 });
 */
export async function openTwoProcesses(name: string): Promise<TwoProcesses> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const path = join(dir, "shared.db");
  const a = createSqliteStorage({ path });
  const b = createSqliteStorage({ path });
  await a.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
  const out: string[] = [];
  const settings = resolveSettings(parseConfig({ workers: { leaseMs: 300 } }));
  return {
    path,
    a,
    b,
    out,
    ctx: (storage) => ({ storage, engine: createRecordEngine({ storage }), settings, templates: [], clock: systemClock, secret: "s".repeat(32), out: (l) => out.push(l) }),
    async close() {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
