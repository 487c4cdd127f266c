/**
 * Driver failures as the engine sees them: "database unavailable" (503) for connection
 * trouble, conflict for lost races, anything else unchanged; and a storage whose
 * connections the server dropped works again on its own.
 */
import { RecordsError } from "@records-service/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { DatabaseUnavailableError, isDatabaseUnavailable, toStorageError } from "./errors.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe("toStorageError", () => {
  it.each([
    { e: err("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"), code: "unavailable" },
    { e: err("getaddrinfo ENOTFOUND db", "ENOTFOUND"), code: "unavailable" },
    { e: err("Connection terminated unexpectedly"), code: "unavailable" },
    { e: err("timeout exceeded when trying to connect"), code: "unavailable" },
    { e: err("terminating connection due to administrator command", "57P01"), code: "unavailable" },
    { e: err("the database system is starting up", "57P03"), code: "unavailable" },
    { e: err("sorry, too many clients already", "53300"), code: "unavailable" },
    { e: err("canceling statement due to statement timeout", "57014"), code: "unavailable" },
    { e: err("duplicate key value violates unique constraint", "23505"), code: "conflict" },
    { e: err("deadlock detected", "40P01"), code: "conflict" },
    { e: err("could not serialize access", "40001"), code: "conflict" },
  ])("$e.message -> $code", ({ e, code }) => {
    const out = toStorageError(e, "db:5432/records");
    expect(out).toBeInstanceOf(RecordsError);
    expect(out).toMatchObject({ code });
    if (code === "unavailable") {
      // Clients see a generic detail; operators get where and why.
      expect(out).toBeInstanceOf(DatabaseUnavailableError);
      expect(out).toMatchObject({ message: "database unavailable", where: "db:5432/records", reason: e.message, status: 503 });
      expect((out as RecordsError).detail).not.toContain("db:5432");
      expect(isDatabaseUnavailable(out)).toBe(true);
    }
  });

  it("passes other errors through unchanged", () => {
    const bug = err('column "nope" does not exist', "42703");
    expect(toStorageError(bug, "x")).toBe(bug);
    expect(isDatabaseUnavailable(bug)).toBe(false);
    const rule = new RecordsError("not_found", "job not found");
    expect(toStorageError(rule, "x")).toBe(rule);
  });
});

describe.skipIf(!inject("pgAvailable"))("a storage whose connections the server ended", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await (await db.emptyStorage()).close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("answers again by itself; meanwhile a call fails only as database unavailable", async () => {
    const s = await createPostgresStorage({ url: db.url }, { poolSize: 4, applicationName: "records-test-reconnect" });
    try {
      await s.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
      await Promise.all([s.listFlocks(), s.listFlocks(), s.listFlocks()]); // several idle connections
      const killed = await db.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'records-test-reconnect'",
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      let answered: string | undefined;
      for (let attempt = 0; attempt < 5 && answered === undefined; attempt++) {
        try {
          answered = (await s.getFlock("demo"))?.name;
        } catch (e) {
          expect(e).toMatchObject({ code: "unavailable", message: "database unavailable" });
        }
      }
      expect(answered).toBe("Demo");
    } finally {
      await s.close();
    }
  });
});
