import { describe, expect, it } from "vitest";
import { describeDb, isDatabaseUrl, openStorage } from "./storage-open.js";

describe("storage-open", () => {
  it.each([
    { db: "postgres://app@db:5432/records", url: true, shown: "postgres://app@db:5432/records" },
    { db: "postgresql://app:s3cret@db/records", url: true, shown: "postgresql://app:***@db/records" },
    { db: "POSTGRES://app:pw@db/records", url: true, shown: "postgres://app:***@db/records" },
    { db: "./data/records.db", url: false, shown: "./data/records.db" },
    { db: ":memory:", url: false, shown: ":memory:" },
  ])("$db", ({ db, url, shown }) => {
    expect(isDatabaseUrl(db)).toBe(url);
    expect(describeDb(db)).toBe(shown);
  });

  it("opens SQLite for anything but a PostgreSQL URL", async () => {
    const s = await openStorage(":memory:");
    expect(await s.listFlocks()).toEqual([]);
    await s.close();
  });
});
