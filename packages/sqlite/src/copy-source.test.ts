/**
 * The copy source reads back what the adapter stored, as the `Storage` methods take it:
 * accounts, settings, records in insertion order (with their state and version), files by
 * id and outbox jobs in insertion order, batch after batch, without changing the file.
 * (A file an older version wrote is covered by server's copy-database.test, which needs
 * PostgreSQL.)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateWrite, type OutboxJob, type StoredFile, type StoredRecord } from "@records-service/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteCopySource } from "./copy-source.js";
import { createSqliteStorage } from "./driver.js";

const dir = mkdtempSync(join(tmpdir(), "records-copy-source-test-"));
const path = join(dir, "records.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T = (n: number) => `2026-01-01T00:00:${String(n).padStart(2, "0")}.000000`;

const record = (n: number, type: string): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "demo",
  type,
  state: "updated",
  data: { n, last_name: `Name ${n} ÄÖ` },
  displayValue: `r${n}`,
  created: T(n),
  lastUpdated: T(n),
  version: 1,
});

const job = (n: number, status: OutboxJob["status"]): OutboxJob => ({
  id: `b${n.toString(16).padStart(23, "0")}`,
  flock: "demo",
  dataEventId: (1000 + n).toString(16).padStart(24, "0"),
  trigger: "contact_created",
  action: "send-json-webhook",
  deliveryId: `d${n}`,
  status,
  attempts: status === "pending" ? 0 : 2,
  nextAttemptAt: T(n),
  firstAttemptAt: status === "pending" ? null : T(n),
  lastError: status === "dead" ? "HTTP 500" : null,
  lastStatus: status === "dead" ? 500 : null,
  body: status === "pending" ? null : '{"a":1}',
  created: T(n),
  claimedUntil: null,
});

describe("openSqliteCopySource", () => {
  const records: StoredRecord[] = [];
  let file: StoredFile;
  const jobs = [job(3, "pending"), job(1, "done"), job(2, "dead")];

  beforeAll(async () => {
    const s = createSqliteStorage({ path });
    await s.createFlock({ identifier: "demo", name: "Demo", created: T(0) });
    await s.putUser({ username: "ada", passwordHash: "scrypt$x", flocks: ["*"], role: "core", created: T(0) });
    await s.putApiKey({ tokenHash: "k1", username: "ada", created: T(0), expires: T(9) });
    await s.initSetting("secret", "s".repeat(32));
    for (let n = 1; n <= 5; n++) records.push(record(n, n % 2 ? "person" : "membership"));
    await s.apply({ records: records.map((r) => ({ kind: "insert" as const, record: r })) });
    const next: StoredRecord = { ...records[1]!, state: "deleted", version: 2, lastUpdated: T(7) };
    await s.apply({ records: [updateWrite(records[1]!, next)] });
    records[1] = next;
    file = { id: "c1", flock: "demo", recordType: "person", recordId: records[0]!.id, field: "photo", filename: "p.bin", contentType: "application/octet-stream", bytes: new Uint8Array([0, 1, 255]), created: T(1) };
    await s.apply({ files: [file], outbox: jobs });
    await s.close();
  });

  it("reads every row as the Storage methods take it, in batches, and leaves the file as it was", () => {
    const before = readFileSync(path);
    const source = openSqliteCopySource(path);
    try {
      expect(source.migrated).toEqual([]);
      expect(source.flocks()).toEqual([{ identifier: "demo", name: "Demo", created: T(0) }]);
      expect(source.users()).toEqual([{ username: "ada", passwordHash: "scrypt$x", flocks: ["*"], role: "core", created: T(0) }]);
      expect(source.apiKeys()).toEqual([{ tokenHash: "k1", username: "ada", created: T(0), expires: T(9) }]);
      expect(source.settings()).toContainEqual({ name: "secret", value: "s".repeat(32) });
      expect(source.counts()).toEqual({ records: 5, files: 1, jobs: 3 });

      const first = source.records(0, 3);
      const rest = source.records(first.next, 3);
      expect([...first.rows, ...rest.rows]).toEqual(records);
      expect(source.records(rest.next, 3)).toEqual({ rows: [], next: rest.next });

      expect(source.files("", 10)).toEqual([file]);
      expect(source.files("c1", 10)).toEqual([]);

      const a = source.jobs(0, 2);
      const b = source.jobs(a.next, 2);
      expect([...a.rows, ...b.rows]).toEqual(jobs);
      expect(source.recordCounts()).toEqual([
        { flock: "demo", type: "membership", state: "deleted", n: 1 },
        { flock: "demo", type: "membership", state: "updated", n: 1 },
        { flock: "demo", type: "person", state: "updated", n: 3 },
      ]);
    } finally {
      source.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
