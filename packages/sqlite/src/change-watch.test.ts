/**
 * The change generation moves on this connection's writes at once and on another
 * connection's commit once the recheck interval has passed, and stays put otherwise.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createChangeWatch } from "./change-watch.js";
import { openDatabase } from "./open.js";

const dir = mkdtempSync(join(tmpdir(), "records-change-watch-"));
const path = join(dir, "records.db");
const own = openDatabase({ path });
const other = openDatabase({ path });
let time = 0;
const watch = createChangeWatch(own.$client, { recheckMs: 25, now: () => time });
afterAll(() => {
  own.$client.close();
  other.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const setting = (db: typeof own, value: string) =>
  db.$client.prepare("INSERT OR REPLACE INTO settings (name, value) VALUES ('k', ?)").run(value);

describe("createChangeWatch", () => {
  it("stays put while nothing is written", () => {
    const g = watch.generation();
    time += 100;
    expect(watch.generation()).toBe(g);
  });

  it("moves at once on this connection's write", () => {
    const g = watch.generation();
    setting(own, "a");
    expect(watch.generation()).toBeGreaterThan(g);
  });

  it("sees another connection's commit only after the recheck interval", () => {
    time += 100;
    const g = watch.generation();
    setting(other, "b");
    time += 24;
    expect(watch.generation()).toBe(g);
    time += 1;
    expect(watch.generation()).toBeGreaterThan(g);
  });

  it("sees another connection's commit at once on sync, and stays put when nothing changed", () => {
    time += 100;
    const g = watch.generation();
    watch.sync();
    expect(watch.generation()).toBe(g);
    setting(other, "c");
    expect(watch.generation()).toBe(g);
    watch.sync();
    expect(watch.generation()).toBeGreaterThan(g);
  });

  it("leaves out this connection's unwatched writes, but not another connection's", () => {
    time += 100;
    const g = watch.generation();
    watch.unwatched(() => setting(own, "limit-like"));
    watch.sync();
    expect(watch.generation()).toBe(g);
    setting(own, "watched");
    expect(watch.generation()).toBeGreaterThan(g);
  });
});
