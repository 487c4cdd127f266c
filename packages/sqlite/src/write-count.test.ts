/**
 * Every statement that may write moves the count, none that only reads does, and the change
 * watch over a counted connection asks `total_changes()` only after the count moved, while
 * its generation moves exactly as before.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createChangeWatch } from "./change-watch.js";
import { openDatabase } from "./open.js";
import { countWrites, writeCount } from "./write-count.js";

/** A counted in-memory connection with a table. */
function counted() {
  const client = new Database(":memory:");
  countWrites(client);
  client.exec("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)");
  return { client, count: writeCount(client)! };
}

describe("countWrites", () => {
  it("counts each run of a statement that may write, through every method, and no read", () => {
    const { client, count } = counted();
    const at = count();
    const read = client.prepare("SELECT count(*) FROM t").pluck();
    read.get();
    read.all();
    [...client.prepare("SELECT a FROM t").iterate()];
    expect(count()).toBe(at);
    // A read's iteration stopped early is as it was.
    for (const row of client.prepare("SELECT a FROM t").iterate()) if (row) break;
    expect(count()).toBe(at);
    client.prepare("INSERT INTO t (b) VALUES (?)").run("x");
    expect(count()).toBe(at + 1);
    expect(client.prepare("INSERT INTO t (b) VALUES (?) RETURNING a").pluck().get("y")).toBe(2);
    expect(client.prepare("UPDATE t SET b = 'z' RETURNING a").pluck().all()).toEqual([1, 2]);
    // An iteration counts when it begins and again when it ends (its changes are made as it is walked).
    const walk = client.prepare("DELETE FROM t WHERE a = 2 RETURNING a").pluck().iterate();
    expect(count()).toBe(at + 4);
    expect([...walk]).toEqual([2]);
    expect(count()).toBe(at + 5);
    client.exec("INSERT INTO t (b) VALUES ('w')");
    client.pragma("user_version = 3");
    expect(count()).toBe(at + 7);
    // A write that fails counts too: the count may only run ahead of the changes.
    expect(() => client.prepare("INSERT INTO t (a) VALUES (1)").run()).toThrow();
    expect(count()).toBe(at + 8);
    countWrites(client); // again: the same count
    client.prepare("DELETE FROM t").run();
    expect(count()).toBe(at + 9);
  });

  it("is on from the start of every connection openDatabase opens, and absent elsewhere", () => {
    const db = openDatabase({ path: ":memory:" });
    expect(writeCount(db.$client)).toBeDefined();
    expect(writeCount(new Database(":memory:"))).toBeUndefined();
    db.$client.close();
  });
});

describe("the change watch over a counted connection", () => {
  it("asks total_changes() only after a statement that may write, and moves as before", () => {
    const { client } = counted();
    let asked = 0;
    const prepare = client.prepare.bind(client);
    client.prepare = ((source: string) => {
      const statement = prepare(source);
      if (/total_changes/.test(source)) {
        const get = statement.get.bind(statement);
        statement.get = ((...args: unknown[]) => (asked++, get(...(args as [])))) as typeof statement.get;
      }
      return statement;
    }) as typeof client.prepare;
    const watch = createChangeWatch(client, { now: () => 0 });
    const g = watch.generation();
    const before = asked;
    for (let i = 0; i < 10; i++) expect(watch.generation()).toBe(g);
    watch.sync();
    expect(asked).toBe(before);
    client.prepare("INSERT INTO t (b) VALUES ('x')").run();
    expect(watch.generation()).toBe(g + 1);
    expect(asked).toBe(before + 1);
    // A statement that may write but changed nothing: asked once more, and nothing moves.
    client.prepare("DELETE FROM t WHERE a = 99").run();
    expect(watch.generation()).toBe(g + 1);
    expect(watch.generation()).toBe(g + 1);
    expect(asked).toBe(before + 2);
    // Unwatched writes stay out, counted or not.
    watch.unwatched(() => client.prepare("INSERT INTO t (b) VALUES ('y')").run());
    expect(watch.generation()).toBe(g + 1);
  });

  it("asks total_changes() at every call on a connection without a count", () => {
    const client = new Database(":memory:");
    client.exec("CREATE TABLE t (a INTEGER PRIMARY KEY)");
    const watch = createChangeWatch(client, { now: () => 0 });
    const g = watch.generation();
    // A statement prepared here is not counted: the watch still sees its write.
    client.prepare("INSERT INTO t DEFAULT VALUES").run();
    expect(watch.generation()).toBe(g + 1);
  });
});
