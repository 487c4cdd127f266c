import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordEngine, formatTimestamp, systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { listBackups } from "../backup/names.js";
import { parseConfig } from "../config.js";
import { settingsOf } from "../settings.js";
import type { WorkerContext } from "../runtime/workers.js";
import { createBackupWorker, runBackupOccurrence } from "./backup.js";

const tmp = mkdtempSync(join(tmpdir(), "records-backup-worker-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** One "process": its own connection to the file, as each server process has. */
function processOn(db: string, dir: string, out: string[] = []): WorkerContext {
  const storage = createSqliteStorage({ path: db });
  const config = parseConfig({ backup: { dir, keep: 3 } });
  return { storage, engine: createRecordEngine({ storage }), settings: settingsOf(config), templates: [], clock: systemClock, secret: "x".repeat(32), out: (l) => out.push(l), db };
}

describe("scheduled backups", () => {
  it("makes one backup per schedule occurrence across processes sharing the file", async () => {
    const db = join(tmp, "shared", "records.db");
    const dir = join(tmp, "shared", "backups");
    const [a, b] = [processOn(db, dir), processOn(db, dir)];
    await a.storage.createFlock({ identifier: "demo", name: "Demo", created: formatTimestamp(systemClock.now()) });
    await a.engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    let t = Date.parse("2026-11-28T03:00:00Z");
    const now = () => new Date((t += 1000));

    // Both processes tick for the 03:00 occurrence at once: one makes it, the other finds the lease or the mark.
    const first = await Promise.all([a, b].map((p) => runBackupOccurrence(p, db, "2026-11-28T03:00:00.000Z", now)));
    expect(first.filter((r) => r !== undefined)).toHaveLength(1);
    // A tick for the same occurrence after that backup is done (a slow process) does nothing.
    expect(await runBackupOccurrence(b, db, "2026-11-28T03:00:00.000Z", now)).toBeUndefined();
    expect(listBackups(dir)).toHaveLength(1);

    // The next occurrence is made once too, by whichever process comes first.
    const second = await runBackupOccurrence(b, db, "2026-11-29T03:00:00.000Z", now);
    expect(second?.counts).toEqual({ demo: 2 });
    expect(await runBackupOccurrence(a, db, "2026-11-29T03:00:00.000Z", now)).toBeUndefined();
    expect(listBackups(dir)).toHaveLength(2);
    await Promise.all([a.storage.close(), b.storage.close()]);
  });

  it("says once at start that it does not copy an in-memory or PostgreSQL database, and does nothing", async () => {
    for (const db of [":memory:", "postgres://app@127.0.0.1:5432/records"]) {
      const out: string[] = [];
      const ctx = { ...processOn(":memory:", join(tmp, "none"), out), db };
      const worker = createBackupWorker(ctx);
      worker.start();
      await worker.stop();
      expect(out).toHaveLength(1);
      expect(out[0]).toMatch(/^backup: the config's backup section copies SQLite files; .*: no backups are made$/);
      expect(listBackups(join(tmp, "none"))).toEqual([]);
      await ctx.storage.close();
    }
  });

  it("runs on its cron and stops cleanly", async () => {
    const db = join(tmp, "cron", "records.db");
    const dir = join(tmp, "cron", "backups");
    const out: string[] = [];
    const ctx = processOn(db, dir, out);
    ctx.settings = settingsOf(parseConfig({ backup: { dir, cron: "* * * * * *", keep: 2 } }));
    const worker = createBackupWorker(ctx);
    worker.start();
    // Every second: wait (bounded) for a backup line.
    const deadline = Date.now() + 15_000;
    while (!out.some((l) => l.startsWith("backup: ")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await worker.stop();
    expect(out.find((l) => l.startsWith("backup: "))).toMatch(/^backup: .*records-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-\d+)?\.db \(\d+ bytes\), integrity ok, records per flock \(no flocks\)/);
    expect(listBackups(dir).length).toBeGreaterThanOrEqual(1);
    expect(listBackups(dir).length).toBeLessThanOrEqual(2);
    await ctx.storage.close();
  });
});
