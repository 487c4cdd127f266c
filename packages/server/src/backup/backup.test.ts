import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordEngine, formatTimestamp, systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createBackup } from "./create.js";
import { backupFileName, listBackups, pruneBackups } from "./names.js";
import { backupAdvice, restoreAdvice } from "./postgres-advice.js";
import { RestoreRefusedError, restoreBackup } from "./restore.js";
import { BackupVerifyError, verifyDatabaseFile } from "./verify.js";

const tmp = mkdtempSync(join(tmpdir(), "records-backup-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(tmp, `case-${++n}`);

/** A database file with flocks demo (`people` persons, each with its data event: 2 records) and north (none). */
async function seeded(path: string, people: number) {
  const storage = createSqliteStorage({ path });
  for (const id of ["demo", "north"]) await storage.createFlock({ identifier: id, name: id, created: formatTimestamp(systemClock.now()) });
  const engine = createRecordEngine({ storage });
  for (let i = 0; i < people; i++) await engine.create("demo", "person", { first_name: `P${i}`, last_name: "Test" });
  return { storage, engine };
}

describe("backup names", () => {
  it("names by the UTC second, and lists only backups, oldest first", () => {
    expect(backupFileName(new Date("2026-11-28T05:00:00.250Z"))).toBe("records-2026-11-28T05-00-00Z.db");
    expect(backupFileName(new Date("2026-11-28T05:00:00Z"), 2)).toBe("records-2026-11-28T05-00-00Z-2.db");
    const dir = fresh();
    mkdirSync(dir);
    for (const f of ["records-2026-11-28T05-00-00Z-1.db", "notes.txt", "records-2026-11-27T05-00-00Z.db", "records-2026-11-28T05-00-00Z.db", "records-latest.db", ".records-2026-11-29T05-00-00Z.db.partial"]) {
      writeFileSync(join(dir, f), "x");
    }
    expect(listBackups(dir)).toEqual(["records-2026-11-27T05-00-00Z.db", "records-2026-11-28T05-00-00Z.db", "records-2026-11-28T05-00-00Z-1.db"]);
    expect(listBackups(join(dir, "missing"))).toEqual([]);
  });

  it("prunes all but the newest N backups and nothing else", () => {
    const dir = fresh();
    mkdirSync(dir);
    const days = ["20", "21", "22", "23", "24"].map((d) => `records-2026-11-${d}T05-00-00Z.db`);
    for (const f of [...days, "notes.txt"]) writeFileSync(join(dir, f), "x");
    expect(pruneBackups(dir, 2)).toEqual(days.slice(0, 3));
    expect(readdirSync(dir).sort()).toEqual([...days.slice(3), "notes.txt"].sort());
    expect(pruneBackups(dir, 7)).toEqual([]);
  });
});

describe("createBackup", () => {
  it("copies a database while another connection writes, verified against the snapshot's counts, and keeps the newest N", async () => {
    const dir = fresh();
    const db = join(dir, "data", "records.db");
    const { storage, engine } = await seeded(db, 30);
    const out = join(dir, "backups");
    let t = Date.parse("2026-11-28T05:00:00Z");
    const now = () => new Date((t += 1000));
    // Writes go on through the server's connection while the copy runs.
    let writing = true;
    const writes = (async () => {
      let i = 0;
      while (writing) await engine.create("demo", "person", { first_name: `W${i++}`, last_name: "Load" });
      return i;
    })();
    const first = await createBackup({ db, dir: out, keep: 2, now });
    writing = false;
    const written = await writes;
    expect(first.file).toBe(join(out, "records-2026-11-28T05-00-01Z.db"));
    expect(first.counts.north).toBe(0);
    // Each create is a person and its data event.
    expect(first.counts.demo).toBeGreaterThanOrEqual(2 * 30);
    expect(first.counts.demo).toBeLessThanOrEqual(2 * (30 + written));
    expect(verifyDatabaseFile(first.file)).toEqual(first.counts);
    // One file: no -wal or -shm beside it, no partial left.
    expect(readdirSync(out)).toEqual(["records-2026-11-28T05-00-01Z.db"]);
    expect(new Database(first.file, { readonly: true }).pragma("journal_mode", { simple: true })).toBe("delete");

    await createBackup({ db, dir: out, keep: 2, now });
    const third = await createBackup({ db, dir: out, keep: 2, now });
    expect(third.removed).toEqual(["records-2026-11-28T05-00-01Z.db"]);
    expect(listBackups(out)).toEqual(["records-2026-11-28T05-00-02Z.db", "records-2026-11-28T05-00-03Z.db"]);
    expect(third.counts.demo).toBe(2 * (30 + written));
    await storage.close();
  });

  it("refuses a missing file or one that is not a records database, leaving nothing behind", async () => {
    const dir = fresh();
    mkdirSync(dir);
    await expect(createBackup({ db: join(dir, "nope.db"), dir: join(dir, "b"), keep: 1 })).rejects.toThrow(/cannot open .*nope\.db/);
    const other = join(dir, "other.db");
    new Database(other).exec("CREATE TABLE t (x)");
    await expect(createBackup({ db: other, dir: join(dir, "b"), keep: 1 })).rejects.toThrow("is not a Records Service database");
    expect(readdirSync(join(dir, "b"))).toEqual([]);
  });

  it("stops when its signal aborts and removes the partial copy", async () => {
    const dir = fresh();
    const db = join(dir, "records.db");
    const { storage } = await seeded(db, 3);
    const lost = new AbortController();
    lost.abort(new Error("lease backup was lost"));
    await expect(createBackup({ db, dir: join(dir, "b"), keep: 1, signal: lost.signal })).rejects.toThrow("lease backup was lost");
    expect(readdirSync(join(dir, "b"))).toEqual([]);
    await storage.close();
  });
});

describe("restoreBackup", () => {
  it("restores into a new file, refuses a target with data unless forced, and verifies the file first", async () => {
    const dir = fresh();
    const db = join(dir, "records.db");
    const { storage } = await seeded(db, 5);
    const { file, counts } = await createBackup({ db, dir: join(dir, "b"), keep: 3 });
    await storage.close();

    const target = join(dir, "restored", "records.db");
    expect(await restoreBackup({ file, db: target, force: false })).toEqual(counts);
    const restored = createSqliteStorage({ path: target });
    expect((await restored.summarizeTypes("demo")).map((t) => [t.name, t.count])).toEqual([["data_event", 5], ["person", 5]]);
    await restored.close();

    await expect(restoreBackup({ file, db, force: false })).rejects.toThrow(RestoreRefusedError);
    await expect(restoreBackup({ file, db, force: false })).rejects.toThrow(`records-service restore: ${db} is not empty (2 flock(s), 0 user(s), 10 record(s)); add --force to overwrite it with ${file}`);
    expect(await restoreBackup({ file, db, force: true })).toEqual(counts);

    const broken = join(dir, "broken.db");
    writeFileSync(broken, "not a database at all, just text that is long enough to look like a header.....");
    await expect(restoreBackup({ file: broken, db: join(dir, "x.db"), force: true })).rejects.toThrow(BackupVerifyError);
    expect(existsSync(join(dir, "x.db"))).toBe(false);
  });
});

describe("PostgreSQL advice", () => {
  it("gives runnable pg_dump and pg_restore commands without the password, quoted for the shell", () => {
    const url = "postgres://records:s3cret@db.internal:5432/records";
    const lines = backupAdvice(url, "/var/backups/my records", new Date("2026-11-28T05:00:00Z"));
    expect(lines[0]).toBe("records-service backup: copies SQLite files only; it does not back up PostgreSQL (postgres://records:***@db.internal:5432/records). Use PostgreSQL's own tools:");
    expect(lines[1]).toBe("  pg_dump --format=custom --file='/var/backups/my records/records-2026-11-28T05-00-00Z.dump' postgres://records@db.internal:5432/records");
    expect(lines.join("\n")).not.toContain("s3cret");
    expect(restoreAdvice(url, "x.dump")[1]).toBe("  pg_restore --clean --if-exists --no-owner --dbname=postgres://records@db.internal:5432/records x.dump");
  });
});
