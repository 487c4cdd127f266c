/**
 * Concurrency through the pool: every change set is one transaction, and the optimistic
 * version check holds when many connections write one record at once. The same scenarios
 * run on SQLite, whose answers PostgreSQL must give.
 */
import { EVERY_FLOCK, isRecordsError, updateWrite, type Storage, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const WRITERS = 20;

const record = (data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord => ({
  id: "a".repeat(24),
  flock: "f1",
  type: "person",
  state: "updated",
  data,
  displayValue: "",
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
  ...over,
});

/** What a PUT does: read the record, then write the change expecting the version read. */
async function put(s: Storage, read: StoredRecord, change: (r: StoredRecord) => Record<string, unknown>): Promise<number> {
  const next = { ...read, data: change(read), version: read.version + 1 };
  await s.apply({ records: [updateWrite(read, next)] });
  return next.version;
}

describe.skipIf(!inject("pgAvailable"))("concurrent writers", () => {
  let db: TestDatabase;
  const adapters: Record<string, () => Promise<Storage>> = {
    sqlite: async () => createSqliteStorage({ path: ":memory:" }),
    postgres: async () => {
      await db.reset();
      return createPostgresStorage({ url: db.url }, { poolSize: WRITERS, migrate: false });
    },
  };
  beforeAll(async () => {
    db = await createTestDatabase();
    await (await db.emptyStorage()).close(); // migrated once
  });
  afterAll(async () => {
    await db?.drop();
  });

  it.each(["sqlite", "postgres"])(
    "%s: 20 PUTs of one version at once: one wins, the 19 others get conflict and change nothing",
    async (name) => {
      const s = await adapters[name]!();
      try {
        await s.apply({ records: [{ kind: "insert", record: record({ n: 0, tags: ["start"] }) }] });
        const reads = await Promise.all(Array.from({ length: WRITERS }, () => s.getRecord("f1", "person", "a".repeat(24))));
        const results = await Promise.allSettled(reads.map((r, i) => put(s, r!, () => ({ n: i + 1, tags: [`w${i + 1}`] }))));
        const won = results.flatMap((r, i) => (r.status === "fulfilled" ? [i + 1] : []));
        const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(WRITERS - 1);
        for (const e of lost) expect(isRecordsError(e) && e.code === "conflict" && e.message === "version conflict").toBe(true);
        const stored = await s.getRecord("f1", "person", "a".repeat(24));
        expect(stored).toMatchObject({ version: 2, data: { n: won[0], tags: [`w${won[0]}`] } });
        // The index rows are the winner's alone.
        const tagged = (t: string) =>
          s.listRecords("f1", "person", {
            filters: [{ field: "tags", meta: false, op: "eq", values: [{ text: t }] }],
            mode: "AND",
            states: ["updated"],
            page: 1,
            pageSize: 5,
          });
        expect((await tagged(`w${won[0]}`)).total).toBe(1);
        expect((await tagged("start")).total).toBe(0);
      } finally {
        await s.close();
      }
    },
  );

  it.each(["sqlite", "postgres"])(
    "%s: 20 writers retrying on conflict: each version is written once, no update is lost",
    async (name) => {
      const s = await adapters[name]!();
      try {
        await s.apply({ records: [{ kind: "insert", record: record({ seen: [] }) }] });
        const versions: number[] = [];
        let conflicts = 0;
        await Promise.all(
          Array.from({ length: WRITERS }, async (_, i) => {
            for (;;) {
              const read = (await s.getRecord("f1", "person", "a".repeat(24)))!;
              try {
                versions.push(await put(s, read, (r) => ({ seen: [...(r.data.seen as string[]), `w${i}`] })));
                return;
              } catch (e) {
                if (!isRecordsError(e) || e.code !== "conflict") throw e;
                conflicts += 1;
              }
            }
          }),
        );
        expect(versions.sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS }, (_, i) => i + 2));
        const stored = (await s.getRecord("f1", "person", "a".repeat(24)))!;
        expect(stored.version).toBe(WRITERS + 1);
        expect([...(stored.data.seen as string[])].sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `w${i}`).sort());
        if (name === "postgres") expect(conflicts).toBeGreaterThan(0); // the writers really overlapped
      } finally {
        await s.close();
      }
    },
  );

  it("postgres: inserts of one id at once: one wins, the others get conflict", async () => {
    const s = await adapters.postgres!();
    try {
      const results = await Promise.allSettled(
        Array.from({ length: WRITERS }, (_, i) => s.apply({ records: [{ kind: "insert", record: record({ n: i }) }] })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
      expect((await s.summarizeTypes("f1"))[0]?.count).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("postgres: concurrent first writes of a new type and new fields share one id each", async () => {
    const s = await adapters.postgres!();
    try {
      // Fields the value index keeps (no defaults of type thing): every flock's rows, ready at once on no records.
      for (const field of ["colour", "size"]) await s.setFieldIndex(EVERY_FLOCK, "thing", field, "index", "config");
      await s.stepFieldIndexes(10);
      await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          s.apply({
            records: [{ kind: "insert", record: record({ colour: `c${i}`, size: i }, { id: i.toString(16).padStart(24, "0"), type: "thing" }) }],
          }),
        ),
      );
      const fields = await db.pool.query("SELECT name, count(*)::int AS n FROM fields GROUP BY name ORDER BY name");
      expect(fields.rows).toEqual([
        { name: "colour", n: 1 },
        { name: "size", n: 1 },
      ]);
      const page = await s.listRecords("f1", "thing", {
        filters: [{ field: "size", meta: false, op: "gte", values: [{ text: "0", number: 0 }] }],
        mode: "AND",
        states: ["updated"],
        page: 1,
        pageSize: 50,
      });
      expect(page.total).toBe(WRITERS);
    } finally {
      await s.close();
    }
  });

  it("postgres: a change set is one transaction: a conflict late in it leaves nothing of it", async () => {
    const s = await adapters.postgres!();
    try {
      await s.apply({ records: [{ kind: "insert", record: record({ n: 1 }) }] });
      const attempt = s.apply({
        records: [
          { kind: "insert", record: record({ fresh: "x" }, { id: "b".repeat(24), type: "fresh" }) },
          { kind: "update", record: record({ n: 2 }, { version: 3 }), expectedVersion: 2, changed: ["n"] },
        ],
        files: [
          {
            id: "c".repeat(24),
            flock: "f1",
            recordType: "fresh",
            recordId: "b".repeat(24),
            field: "doc",
            filename: "a.txt",
            contentType: "text/plain",
            bytes: new Uint8Array([1, 2, 3]),
            created: "2026-01-01T00:00:00.000000",
          },
        ],
      });
      await expect(attempt).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getRecord("f1", "fresh", "b".repeat(24))).toBeUndefined();
      expect(await s.getFile("f1", "c".repeat(24))).toBeUndefined();
      expect(await s.summarizeTypes("f1")).toEqual([{ name: "person", count: 1, lastModified: "2026-01-01T00:00:00.000000" }]);
      // The type and field made by the rolled-back set are not cached: writing them again works.
      await s.apply({ records: [{ kind: "insert", record: record({ fresh: "x" }, { id: "b".repeat(24), type: "fresh" }) }] });
      expect((await s.summarizeTypes("f1")).map((t) => t.name)).toEqual(["fresh", "person"]);
    } finally {
      await s.close();
    }
  });
});
