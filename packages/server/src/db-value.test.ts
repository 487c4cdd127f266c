import { describe, expect, it } from "vitest";
import { checkDbValue, DB_FORMS } from "./db-value.js";

describe("checkDbValue", () => {
  it.each([
    ":memory:",
    "./data/records.db",
    "records.db",
    "/var/lib/records/records.db",
    "postgres/records.db",
    "./data:2026/records.db",
    "C:\\records\\records.db",
    "C:/records/records.db",
    "postgres://records@127.0.0.1:5432/records",
    "postgresql://records:secret@db.internal/records",
    "POSTGRES://records@db/records",
    "postgres:///records?host=/var/run/postgresql",
  ])("accepts %s", (db) => {
    expect(checkDbValue(db, "--db")).toBeUndefined();
  });

  it.each([
    { db: "postgres:/bad", why: "not a valid PostgreSQL URL" },
    { db: "postgresql//x", why: "not a valid PostgreSQL URL" },
    { db: "postgress://x/records", why: "not a valid PostgreSQL URL" },
    { db: "postgres:records", why: "not a valid PostgreSQL URL" },
    { db: "postgres://", why: "the URL names no host" },
    { db: "postgres:///records", why: "the URL names no host" },
    { db: "postgres://h:port/records", why: "not a valid PostgreSQL URL" },
    { db: "mysql://root@localhost/records", why: 'looks like a URL with scheme "mysql:"' },
    { db: "http://example.org/records.db", why: 'looks like a URL with scheme "http:"' },
    { db: "redis:6379", why: 'looks like a URL with scheme "redis:"' },
    { db: "file:./records.db", why: "give a SQLite file as a plain path (./data/records.db), not a file: URL" },
    { db: "sqlite:///data/records.db", why: "not a sqlite: URL" },
    { db: "./x/postgres://h/d", why: "not a valid PostgreSQL URL" },
  ])("refuses $db: $why", ({ db, why }) => {
    const message = checkDbValue(db, "--db")!;
    expect(message).toContain(`bad --db ${JSON.stringify(db)}: `);
    expect(message).toContain(why);
    expect(message.endsWith(DB_FORMS)).toBe(true);
    expect(message).not.toContain("\n");
  });

  it("names where the value came from", () => {
    expect(checkDbValue("postgres:/x", "DATABASE_URL")).toMatch(/^bad DATABASE_URL "postgres:\/x": /);
  });
});
