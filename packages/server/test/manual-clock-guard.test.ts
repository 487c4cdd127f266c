/**
 * The emulator's guard on every adapter: a manual clock refuses a database that holds
 * records (any flock, any state) unless `allowExistingData`, through `startServer` on a
 * SQLite file and on PostgreSQL, and at the storage level on memory, SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStorage, createRecordEngine, formatTimestamp, systemClock, type Storage } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { ExistingDataError, refuseExistingData } from "../src/clock/existing-data.js";
import { createManualClock } from "../src/clock/manual-clock.js";
import { startServer } from "../src/runtime.js";
import { adapterAvailable, EVERY_ADAPTER, type AdapterName } from "./helpers/every-adapter.js";

const tmp = mkdtempSync(join(tmpdir(), "records-clock-guard-"));
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A fresh database of `name`: the Storage and the `--db` value that opens it again. */
async function fresh(name: AdapterName, n: number): Promise<{ storage: Storage; db: string | undefined }> {
  if (name === "memory") return { storage: createMemoryStorage(), db: undefined };
  if (name === "sqlite") {
    const db = join(tmp, `guard-${n}.db`);
    return { storage: createSqliteStorage({ path: db }), db };
  }
  const d = await createTestDatabase();
  databases.push(d);
  return { storage: await d.emptyStorage(), db: d.url };
}

let n = 0;
describe.each(EVERY_ADAPTER)("the manual clock's guard on %s", (name) => {
  const run = it.skipIf(!adapterAvailable(name));

  run("lets flocks and users through, refuses records (deleted ones too) with one line, and startServer honours allowExistingData", { timeout: 60_000 }, async () => {
    const { storage, db } = await fresh(name, ++n);
    const where = db ?? ":memory:";
    await refuseExistingData(storage, where);
    for (const id of ["alpha", "beta"]) await storage.createFlock({ identifier: id, name: id, created: formatTimestamp(systemClock.now()) });
    await refuseExistingData(storage, where);
    const engine = createRecordEngine({ storage });
    const ada = await engine.create("beta", "person", { first_name: "Ada", last_name: "Lovelace" });
    await engine.delete("beta", "person", ada.id);
    const refused = refuseExistingData(storage, where);
    await expect(refused).rejects.toThrow(ExistingDataError);
    await expect(refused).rejects.toThrow(/^records-service: refusing to run the manual clock \(--clock manual\) on .*: it holds records \(1 live, in flock beta\) that the emulator's clock would stamp with made-up times; use --db :memory: or a scratch file, or add --allow-existing-data to run on it anyway$/);
    await storage.close();
    if (db === undefined) return;

    const clock = () => createManualClock(new Date("2026-01-01T00:00:00Z"));
    const common = { db, host: "127.0.0.1", port: 0, seed: false, workers: [] };
    await expect(startServer({ ...common, clock: clock() })).rejects.toThrow(ExistingDataError);
    const server = await startServer({ ...common, clock: clock(), allowExistingData: true });
    expect((await fetch(`${server.url}/api/v1/ping/`)).status).toBe(200);
    await server.close();
    // The system clock never asks.
    const real = await startServer(common);
    await real.close();
  });
});
