/**
 * Copying a SQLite database into PostgreSQL: everything arrives (accounts, settings,
 * records with versions and states in insertion order, files, outbox jobs), an interrupted
 * copy resumes without writing anything twice, and the counts are compared at the end. A
 * file an older version wrote is copied as this version's migrations would leave it, and
 * stays as it was.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateWrite, type ListQuery, type OutboxJob, type Storage, type StoredFile, type StoredRecord } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { createSqliteStorage, openDatabase, openSqliteCopySource } from "@records-service/sqlite";
import { rewindMigrations } from "@records-service/sqlite/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { copyDatabase, type CopyProgress } from "./copy-database.js";

const dir = mkdtempSync(join(tmpdir(), "records-copy-"));
const file = join(dir, "records.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T = (n: number) => `2026-01-01T00:${String(Math.floor(n / 60) % 60).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.000000`;

const record = (n: number, flock: string, type: string, data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock,
  type,
  state: "updated",
  data,
  displayValue: `r${n}`,
  created: T(n),
  lastUpdated: T(n),
  version: 1,
  ...over,
});

const job = (n: number, status: OutboxJob["status"]): OutboxJob => ({
  id: `b${n.toString(16).padStart(23, "0")}`,
  flock: "demo",
  dataEventId: (1000 + n).toString(16).padStart(24, "0"),
  trigger: "contact_created",
  action: "send-json-webhook",
  deliveryId: `b${n.toString(16).padStart(23, "0")}`,
  status,
  attempts: status === "pending" ? 0 : 2,
  nextAttemptAt: T(n),
  firstAttemptAt: status === "pending" ? null : T(n),
  lastError: status === "dead" ? "HTTP 500: \u0000oops" : null,
  lastStatus: status === "dead" ? 500 : null,
  body: status === "pending" ? null : '{"a":1}',
  created: T(n),
});

const file_ = (n: number, owner: StoredRecord): StoredFile => ({
  id: `c${n.toString(16).padStart(23, "0")}`,
  flock: owner.flock,
  recordType: owner.type,
  recordId: owner.id,
  field: "photo",
  filename: `p${n}.bin`,
  contentType: "application/octet-stream",
  bytes: new Uint8Array(Array.from({ length: 300 + n }, (_, i) => (i * n) % 256)),
  created: T(n),
});

/** What a reader of either database sees: every record, page, file, job and account row. */
async function everything(s: Storage, records: StoredRecord[], files: StoredFile[]) {
  const types = new Map<string, Set<string>>();
  for (const r of records) {
    if (!types.has(r.flock)) types.set(r.flock, new Set());
    types.get(r.flock)!.add(r.type);
  }
  const pages: unknown[] = [];
  for (const [flock, ts] of types) {
    for (const type of ts) {
      const q: ListQuery = { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 1000 };
      pages.push(await s.listRecords(flock, type, q));
      pages.push(await s.listRecords(flock, type, { ...q, filters: [{ field: "tags", meta: false, op: "eq", values: [{ text: "vip" }] }] }));
    }
    pages.push(await s.summarizeTypes(flock));
  }
  return {
    flocks: await s.listFlocks(),
    users: await Promise.all(["ada", "bob"].map((u) => s.getUser(u))),
    keys: await Promise.all(["k1", "k2"].map((k) => s.getApiKey(k))),
    settings: await Promise.all(["secret", "scheduler.last_run:demo"].map((n) => s.getSetting(n))),
    records: await Promise.all(records.map((r) => s.getRecord(r.flock, r.type, r.id))),
    files: await Promise.all(files.map((f) => s.getFile(f.flock, f.id))),
    jobs: await s.listJobs({ limit: 1000 }),
    pages,
  };
}

describe.skipIf(!inject("pgAvailable"))("copyDatabase from SQLite to PostgreSQL", () => {
  let db: TestDatabase;
  const records: StoredRecord[] = [];
  const files: StoredFile[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const s = createSqliteStorage({ path: file });
    for (const id of ["demo", "other"]) await s.createFlock({ identifier: id, name: `Flock ${id} \u00e9`, created: T(0) });
    await s.putUser({ username: "ada", passwordHash: "scrypt$x", flocks: ["*"], role: "core", created: T(0) });
    await s.putUser({ username: "bob", passwordHash: "scrypt$y", flocks: ["demo"], role: "self-service", created: T(0) });
    await s.putApiKey({ tokenHash: "k1", username: "ada", created: T(0), expires: null });
    await s.putApiKey({ tokenHash: "k2", username: "bob", created: T(0), expires: T(9) });
    await s.initSetting("secret", "s".repeat(32));
    await s.putSetting("scheduler.last_run:demo", T(5));
    for (let n = 1; n <= 60; n++) {
      const flock = n % 4 === 0 ? "other" : "demo";
      const type = n % 5 === 0 ? "membership" : n % 7 === 0 ? "core_event" : "person";
      records.push(record(n, flock, type, { last_name: `Name ${n} ÄÖ 東京`, tags: n % 3 === 0 ? ["vip"] : ["x"], n, note: "\u0000".repeat(n % 2) }));
    }
    await s.apply({ records: records.map((r) => ({ kind: "insert" as const, record: r })) });
    // Later versions and states: an update and a deletion of some records.
    for (let i = 1; i < records.length; i += 6) {
      const r = records[i]!;
      const next = { ...r, data: { ...r.data, tags: ["vip", "later"] }, state: i % 12 === 1 ? ("deleted" as const) : r.state, version: 2 };
      await s.apply({ records: [updateWrite(r, next)] });
      records[i] = next;
    }
    for (const r of records.filter((_, i) => i % 9 === 2)) files.push(file_(files.length + 1, r));
    await s.apply({ files, outbox: [job(1, "pending"), job(2, "done"), job(3, "dead"), job(4, "pending")] });
    await s.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("copies everything; stopped half way and run again, it finishes without writing anything twice", async () => {
    const target = await db.emptyStorage();
    const source = openSqliteCopySource(file);
    try {
      const stop = new AbortController();
      const seen: CopyProgress[] = [];
      const first = await copyDatabase(source, target, {
        batchSize: 7,
        progress: (p) => {
          seen.push(p);
          if (p.phase === "records" && p.done >= 21) stop.abort();
        },
        signal: stop.signal,
      });
      expect(first).toMatchObject({ aborted: true, ok: false, copied: { flocks: 2, records: 21 } });
      expect(seen.at(-1)).toEqual({ phase: "records", done: 21, total: 60 });

      const again = await copyDatabase(source, target, { batchSize: 10 });
      expect(again).toMatchObject({ aborted: false, ok: true, copied: { flocks: 0, records: 39, files: files.length, jobs: 4 }, skipped: { records: 21 } });
      expect(again.checks.filter((c) => c.state === "deleted").length).toBeGreaterThan(0);

      const third = await copyDatabase(source, target, { batchSize: 13 });
      expect(third).toMatchObject({ ok: true, copied: { records: 0, files: 0, jobs: 0 }, skipped: { records: 60, files: files.length, jobs: 4 } });
      // The target's change log holds one write per copied record, named as the copy's.
      const logged = [...(await target.readChanges("demo", 0, 1000)).changes, ...(await target.readChanges("other", 0, 1000)).changes];
      expect(logged).toHaveLength(60);
      expect(logged.every((c) => c.actor === null && c.application === "system:copy")).toBe(true);

      const sqlite = createSqliteStorage({ path: file, readonly: true });
      try {
        expect(await everything(target, records, files)).toEqual(await everything(sqlite, records, files));
      } finally {
        await sqlite.close();
      }
    } finally {
      source.close();
      await target.close();
    }
  });
});

describe.skipIf(!inject("pgAvailable"))("copyDatabase from a file an older version wrote", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("copies what this version's migrations make of it (member accounts in their namespace, keys with a lifetime); the file stays as it was", async () => {
    const path = join(dir, "old.db");
    const raw = openDatabase({ path }).$client;
    rewindMigrations(raw, "0003_member_accounts");
    raw.prepare("INSERT INTO flocks (identifier, name, created) VALUES ('demo', 'Demo', ?)").run(T(0));
    const user = raw.prepare("INSERT INTO users (username, password_hash, flocks, role, created) VALUES (?, ?, ?, ?, ?)");
    user.run("ada@example.org", "scrypt$member", JSON.stringify(["demo"]), "self-service", T(0));
    user.run("admin", "scrypt$admin", JSON.stringify(["*"]), "core", T(0));
    const key = raw.prepare("INSERT INTO api_keys (token_hash, username, created, expires) VALUES (?, ?, ?, ?)");
    key.run("1".repeat(64), "ada@example.org", T(1), T(2));
    key.run("2".repeat(64), "admin", "2026-01-02T10:20:30.123456", null);
    raw.prepare("INSERT INTO settings (name, value) VALUES ('secret', ?)").run("o".repeat(32));
    const applied = () => (raw.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
    const before = applied();

    const snapshots = () => readdirSync(tmpdir()).filter((f) => f.startsWith("records-copy-source-")).length;
    const snapshotsBefore = snapshots();
    const source = openSqliteCopySource(path);
    const target = await db.emptyStorage();
    try {
      expect(source.migrated).toContain("0003_member_accounts");
      expect(snapshots()).toBe(snapshotsBefore + 1);
      expect(await copyDatabase(source, target)).toMatchObject({ ok: true, copied: { flocks: 1, users: 2, apiKeys: 1, settings: 1 } });
      expect(await target.getUser("ada@example.org")).toBeUndefined();
      expect(await target.getUser("demo ada@example.org")).toMatchObject({ passwordHash: "scrypt$member", flocks: ["demo"], role: "self-service" });
      expect(await target.getApiKey("1".repeat(64))).toBeUndefined(); // the member's old session ended
      expect((await target.getApiKey("2".repeat(64)))?.expires).toBe("2026-02-01T10:20:30.123456");
      expect(await target.getSetting("secret")).toBe("o".repeat(32));
    } finally {
      source.close();
      await target.close();
    }
    expect(snapshots()).toBe(snapshotsBefore); // the snapshot is gone
    // The file itself is untouched: no migration recorded, the old rows.
    expect(applied()).toBe(before);
    expect(raw.prepare("SELECT role FROM users WHERE username = 'ada@example.org'").get()).toEqual({ role: "self-service" });
    expect(raw.prepare("SELECT expires FROM api_keys WHERE token_hash = ?").get("2".repeat(64))).toEqual({ expires: null });
    raw.close();
    // A file at this version's schema is read as it is.
    const current = openSqliteCopySource(file);
    expect(current.migrated).toEqual([]);
    current.close();
  });
});
