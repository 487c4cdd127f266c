/**
 * Import and export through the library, on SQLite and PostgreSQL: rows kept as given (ids,
 * states, timestamps, versions), bad rows refused alone with their lines, a batch that
 * cannot be written refused whole, re-runs that change nothing, `update`, events, CSV
 * cells, and the round trip: export, import into an empty database, export again, same bytes.
 */
import {
  createFakeClock,
  createRecordEngine,
  createSequentialIds,
  formatTimestamp,
  parseTimestamp,
  validateTriggers,
  type RecordEngine,
  type Storage,
} from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, inject, it } from "vitest";
import { exportRecords } from "./export-records.js";
import { importRecords } from "./import-records.js";
import { readCsv, readNdjson, type ImportRow } from "./read-rows.js";

const T0 = "2026-03-01T10:00:00.000000";

async function engineOn(storage: Storage, flocks = ["demo"]): Promise<RecordEngine> {
  for (const f of flocks) await storage.createFlock({ identifier: f, name: f, created: T0 });
  const { triggers } = validateTriggers([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://hooks.example.org/x" }], {});
  return createRecordEngine({ storage, clock: createFakeClock(new Date("2026-03-02T00:00:00Z")), ids: createSequentialIds(), triggers: () => triggers });
}

async function lines(storage: Storage, flock: string, opts: Parameters<typeof exportRecords>[2] = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const l of exportRecords(storage, flock, opts)) out.push(l);
  return out;
}

const ndjson = (...ls: string[]) => readNdjson([`${ls.join("\n")}\n`]);
const id = (n: number) => `a${n.toString(16).padStart(23, "0")}`;

/** A small flock written through the engine: persons (one deleted, one updated), a membership. */
async function seed(engine: RecordEngine): Promise<void> {
  const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], tags: ["vip", "donor"] });
  const bob = await engine.create("demo", "person", { first_name: "Bob", last_name: "Brown", date_of_birth: "1990-02-03", email_opt_out: true });
  await engine.create("demo", "person", { first_name: "Cy", last_name: "Gone" }).then((c) => engine.delete("demo", "person", c.id));
  await engine.update("demo", "person", bob.id, { job_title: "Engineer" });
  await engine.create("demo", "membership", { member: `/demo/person/${ada.id}/`, start_date: "2026-01-01", amount: 30 });
}

function suite(name: string, open: () => Promise<Storage>) {
  describe(`importRecords / exportRecords (${name})`, () => {
    it("round trip: export, import into an empty database, export again: the same bytes", async () => {
      const source = await open();
      await seed(await engineOn(source));
      const first = await lines(source, "demo", { includeDeleted: true });
      expect(first.length).toBe(4);
      const target = await open();
      const engine = await engineOn(target);
      const report = await importRecords(engine, "demo", readNdjson([first.map((l) => `${l}\n`).join("")]), {});
      expect(report).toMatchObject({ read: 4, created: 4, refused: 0, skipped: 0 });
      expect(await lines(target, "demo", { includeDeleted: true })).toEqual(first);
      // Without --include-deleted the deleted person is left out; data events are never exported unasked.
      expect((await lines(target, "demo")).length).toBe(3);
      await source.close();
      await target.close();
    });

    it("keeps ids, states, timestamps and versions; gives rows without an id a new one; re-running changes nothing", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      const rows = [
        `{"type":"person","id":"${id(1)}","state":"deleted","created":"2025-01-01T00:00:00.000000","last_updated":"2025-02-01T00:00:00.000000","version":3,"data":{"first_name":"Old","formatted_name":"ignored: derived again"}}`,
        `{"first_name":"New","last_name":"Person","tags":["a"]}`,
      ];
      const report = await importRecords(engine, "demo", ndjson(...rows));
      expect(report).toMatchObject({ read: 2, created: 2, refused: 0 });
      const old = await storage.getRecord("demo", "person", id(1));
      expect(old).toMatchObject({ state: "deleted", created: "2025-01-01T00:00:00.000000", lastUpdated: "2025-02-01T00:00:00.000000", version: 3 });
      expect(old!.data.formatted_name).toBe("Old");
      const before = await lines(storage, "demo", { includeDeleted: true });
      const again = await importRecords(engine, "demo", ndjson(rows[0]!));
      expect(again).toMatchObject({ read: 1, created: 0, skipped: 1, refused: 0 });
      expect(await lines(storage, "demo", { includeDeleted: true })).toEqual(before);
      await storage.close();
    });

    it("refuses bad rows alone, each with its line and reason", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      const refused: [number, string][] = [];
      const report = await importRecords(
        engine,
        "demo",
        readNdjson([
          [
            `{"id":"${id(1)}","first_name":"Ok"}`,
            "",
            "{not json",
            `{"id":"${id(2)}","first_name":42}`,
            `{"id":"${id(1)}","first_name":"Twice"}`,
            `{"id":"nope","first_name":"X"}`,
            `{"created":"yesterday","first_name":"X"}`,
            `{"type":"data_event","name":"x"}`,
            `[1,2]`,
            `{"state":"gone"}`,
            `{"id":"${id(3)}","first_name":"Also ok"}`,
          ].join("\n"),
        ]),
        { onRefused: (line, reason) => refused.push([line, reason]) },
      );
      expect(report).toMatchObject({ read: 10, created: 2, refused: 8 });
      expect(refused.map(([l]) => l)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
      expect(refused[0]![1]).toMatch(/not JSON/);
      expect(refused[1]![1]).toMatch(/first_name/);
      expect(refused[2]![1]).toMatch(/given on line 1 already/);
      expect(refused[3]![1]).toMatch(/not a record id/);
      expect(refused[4]![1]).toMatch(/not a timestamp/);
      expect(refused[5]![1]).toMatch(/written by the service/);
      expect(refused[6]![1]).toMatch(/JSON object/);
      expect(refused[7]![1]).toMatch(/expected updated or deleted/);
      expect(report.refusals.map((r) => r.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
      await storage.close();
    });

    // Kept as written only when it is the stored form: exactly what formatting the parsed time gives back.
    it.each([
      { created: "2026-03-01T10:00:00.123000", kept: true },
      { created: "1000-01-01T00:00:00.000000", kept: true },
      { created: "2024-02-29T23:59:59.999000", kept: true },
      { created: "2026-02-29T10:00:00.000000", kept: false },
      { created: "2026-03-01T24:00:00.000000", kept: false },
      { created: "2026-00-01T10:00:00.000000", kept: false },
      { created: "2026-03-01T10:00:00.123456", kept: false },
      { created: "2026-03-01T10:00:00", kept: false },
      { created: "2026-03-01 10:00:00.000000", kept: false },
      { created: "2026-03-01T10:00:00.000000Z", kept: false },
      { created: "0999-03-01T10:00:00.000000", kept: false },
    ])("a row's created $created is kept: $kept", async ({ created, kept }) => {
      expect(formatTimestamp(parseTimestamp(created) ?? new Date(0)) === created).toBe(kept);
      const storage = await open();
      const engine = await engineOn(storage);
      const report = await importRecords(engine, "demo", ndjson(`{"id":"${id(1)}","created":"${created}","first_name":"Ada"}`));
      expect(report).toMatchObject({ created: kept ? 1 : 0, refused: kept ? 0 : 1 });
      if (kept) expect(await storage.getRecord("demo", "person", id(1))).toMatchObject({ created, lastUpdated: created });
      else expect(report.refusals[0]!.reason).toMatch(/is not a timestamp/);
      await storage.close();
    });

    it("a batch whose write fails is refused whole: none of its rows is written", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      // The membership takes id(5); a person row with that id makes its batch's insert fail.
      await importRecords(engine, "demo", ndjson(`{"type":"membership","id":"${id(5)}","data":{"amount":1}}`));
      const report = await importRecords(
        engine,
        "demo",
        ndjson(`{"id":"${id(1)}","first_name":"A"}`, `{"id":"${id(2)}","first_name":"B"}`, `{"id":"${id(5)}","first_name":"C"}`, `{"id":"${id(6)}","first_name":"D"}`),
        { batchSize: 3 },
      );
      expect(report).toMatchObject({ read: 4, created: 1, refused: 3 });
      expect(report.refusals.map((r) => r.line)).toEqual([1, 2, 3]);
      expect(report.refusals[0]!.reason).toMatch(/batch not written/);
      expect(await storage.getRecord("demo", "person", id(1))).toBeUndefined();
      expect(await storage.getRecord("demo", "person", id(6))).toBeDefined();
      await storage.close();
    });

    it("with update, lays the row over the stored record (a new version); an unchanged row is skipped", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      await importRecords(engine, "demo", ndjson(`{"id":"${id(1)}","first_name":"Ada","last_name":"L"}`));
      const report = await importRecords(engine, "demo", ndjson(`{"id":"${id(1)}","first_name":"Ada","last_name":"Lovelace"}`, `{"id":"${id(1)}","first_name":"x"}`), { update: true });
      expect(report).toMatchObject({ updated: 1, refused: 1 }); // the second names the id again
      const r = await storage.getRecord("demo", "person", id(1));
      expect(r).toMatchObject({ version: 2 });
      expect(r!.data.formatted_name).toBe("Ada Lovelace");
      expect(await importRecords(engine, "demo", ndjson(`{"id":"${id(1)}","last_name":"Lovelace"}`), { update: true })).toMatchObject({ updated: 0, skipped: 1 });
      await storage.close();
    });

    it("records data events and queues actions only with events", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      await importRecords(engine, "demo", ndjson(`{"first_name":"Quiet"}`));
      expect((await lines(storage, "demo", { type: "data_event" })).length).toBe(0);
      await importRecords(engine, "demo", ndjson(`{"first_name":"Loud"}`), { events: true });
      expect((await lines(storage, "demo", { type: "data_event" })).length).toBe(1);
      expect((await storage.listJobs({})).length).toBe(1);
      await storage.close();
    });

    it("names a membership after its plan, with events off as on (as the API does)", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      const gold = await engine.create("demo", "membership_type", { name: "Gold" });
      const plan = `/demo/membership_type/${gold.id}/`;
      const viaApi = await engine.create("demo", "membership", { membership_type: plan, membership_number: "0041" });
      expect(viaApi.displayValue).toBe("Gold 0041");
      const row = (n: number, number: string) => `{"type":"membership","id":"${id(n)}","data":{"membership_type":"${plan}","membership_number":"${number}"}}`;
      expect(await importRecords(engine, "demo", ndjson(row(1, "0043")), { events: false })).toMatchObject({ created: 1, refused: 0 });
      expect(await importRecords(engine, "demo", ndjson(row(2, "0044")), { events: true })).toMatchObject({ created: 1, refused: 0 });
      expect((await storage.getRecord("demo", "membership", id(1)))?.displayValue).toBe("Gold 0043");
      expect((await storage.getRecord("demo", "membership", id(2)))?.displayValue).toBe("Gold 0044");
      await storage.close();
    });

    it("reads CSV: list cells joined by ;, JSON arrays for entries holding a ;, booleans, quoted cells over lines", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      const csv = [
        "id,first_name,last_name,tags,email,email_opt_out,notes",
        `${id(1)},Ada,Lovelace,vip; donor,"[""ada@example.org;home""]",true,`,
        `${id(2)},Bob,Brown,,bob@example.org,false,"two`,
        `lines"`,
        `${id(3)},Cy,Bad,,,maybe,`,
        `${id(4)},Short`,
      ].join("\r\n");
      const refused: number[] = [];
      const report = await importRecords(engine, "demo", readCsv([csv], "person"), { onRefused: (l) => refused.push(l) });
      expect(report).toMatchObject({ read: 4, created: 2, refused: 2 });
      expect(refused).toEqual([5, 6]);
      const ada = await storage.getRecord("demo", "person", id(1));
      expect(ada!.data).toMatchObject({ tags: ["vip", "donor"], email: ["ada@example.org;home"], email_opt_out: true });
      expect((await storage.getRecord("demo", "person", id(2)))!.data).toMatchObject({ notes: "two\r\nlines", email_opt_out: false });
      await storage.close();
    });

    it("throws for an unknown flock or a type only the service writes, before reading", async () => {
      const storage = await open();
      const engine = await engineOn(storage);
      const never: Iterable<ImportRow> = {
        [Symbol.iterator]: () => {
          throw new Error("read");
        },
      };
      await expect(importRecords(engine, "nope", never)).rejects.toMatchObject({ code: "not_found" });
      await expect(importRecords(engine, "demo", never, { type: "data_event" })).rejects.toMatchObject({ code: "bad_request" });
      await expect(lines(storage, "nope")).rejects.toMatchObject({ code: "not_found" });
      await storage.close();
    });
  });
}

suite("SQLite", async () => createSqliteStorage({ path: ":memory:" }));

describe.skipIf(!inject("pgAvailable"))("on PostgreSQL", () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });
  suite("PostgreSQL", async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    return db.emptyStorage();
  });
});
