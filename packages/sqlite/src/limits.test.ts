/**
 * The limits table on SQLite: expired rows leave the table (by expiry, in bounded
 * batches), unexpired rows stay however many there are.
 */
import { describe, expect, it } from "vitest";
import { createLimitStore } from "./limits.js";
import { openDatabase } from "./open.js";

const T = 1_800_000_000_000;

function setup() {
  const db = openDatabase({ path: ":memory:" });
  const limits = createLimitStore(db.$client);
  const count = () => (db.$client.prepare("SELECT count(*) AS n FROM limits").get() as { n: number }).n;
  return { db, limits, count };
}

describe("createLimitStore", () => {
  it("purges expired rows at most once a minute, in batches of 500, and never an unexpired one", () => {
    const { db, limits, count } = setup();
    const insert = db.$client.prepare("INSERT INTO limits (key, value, expires_at) VALUES (?, 'x', ?)");
    db.$client.transaction(() => {
      for (let i = 0; i < 1200; i++) insert.run(`old:${i}`, T - 1);
      for (let i = 0; i < 50; i++) insert.run(`live:${i}`, T + 3_600_000);
    })();
    limits.update("k", T, () => undefined); // first call: a full batch, so the next purges too
    expect(count()).toBe(1250 - 500);
    limits.update("k", T, () => undefined);
    expect(count()).toBe(1250 - 1000);
    limits.update("k", T, () => undefined); // the last 200: done until a minute later
    expect(count()).toBe(50);
    insert.run("old:late", T - 1);
    limits.update("k", T + 59_999, () => undefined);
    expect(count()).toBe(51);
    limits.update("k", T + 60_000, () => undefined);
    expect(count()).toBe(50);
    db.$client.close();
  });
});
