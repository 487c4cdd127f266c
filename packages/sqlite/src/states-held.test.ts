/**
 * A live list of a collection without deleted records tests no state (`statesHeld`); it may
 * do so only on kept counts of its own read. Another process's delete, committed after this
 * process remembered the counts and before it noticed the commit (the recheck interval),
 * must not let the deleted record into a live page, nor a live one into a deleted page.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseListQuery, updateWrite } from "@records-service/core";
import { insertsOf, testRecord } from "@records-service/sql/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

const dir = mkdtempSync(join(tmpdir(), "records-states-held-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a live list without a state test", () => {
  it("never shows a record another process deleted since this one remembered the counts", async () => {
    const path = join(dir, "records.db");
    // This process's clock stands still: it notices another's commits only on sync.
    const here = createSqliteStorage({ path, now: () => 0 });
    const there = createSqliteStorage({ path });
    try {
      const [a, b] = [testRecord(1, "person", { last_name: "A" }), testRecord(2, "person", { last_name: "B" })];
      await here.apply({ records: insertsOf([a, b]) });
      const list = (qs: string) => here.listRecords("f1", "person", parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date(0) }));
      const ids = async (qs: string) => (await list(qs)).records.map((r) => `${r.id.slice(-1)}:${r.state}`);
      expect(await ids("")).toEqual(["1:updated", "2:updated"]);
      expect(await ids("state=deleted")).toEqual([]);
      await there.apply({ records: [updateWrite(a, { ...a, state: "deleted", version: 2 })] });
      // Before this process noticed the commit: its remembered counts say "no deleted
      // record", its read sees the delete; the page is the read's.
      expect(await ids("")).toEqual(["2:updated"]);
      // Once noticed (the server syncs at the start of every request), the totals follow too.
      await here.syncChanges();
      expect(await ids("")).toEqual(["2:updated"]);
      expect(await ids("state=deleted")).toEqual(["1:deleted"]);
      expect(await ids("include_deleted=Y")).toEqual(["1:deleted", "2:updated"]);
    } finally {
      await here.close();
      await there.close();
    }
  });

  it("counts a filter's matches on the read's own counts, so another process's delete is left out of the total", async () => {
    const path = join(dir, "counts.db");
    const here = createSqliteStorage({ path, now: () => 0 });
    const there = createSqliteStorage({ path });
    try {
      const records = [1, 2, 3, 4].map((n) => testRecord(n, "person", { last_name: "A" }));
      await here.apply({ records: insertsOf(records) });
      const list = async (qs: string) => {
        const page = await here.listRecords("f1", "person", parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date(0) }));
        return { total: page.total, ids: page.records.map((r) => Number(r.id.slice(-1))) };
      };
      expect(await list("last_name=A&page_size=2")).toEqual({ total: 4, ids: [1, 2] });
      await there.apply({ records: [updateWrite(records[0]!, { ...records[0]!, state: "deleted", version: 2 })] });
      // Before this process noticed the commit: a full first page, a later page and a short
      // first page all give the read's total.
      expect(await list("last_name=A&page_size=2")).toEqual({ total: 3, ids: [2, 3] });
      expect(await list("last_name=A&page_size=2&page=2")).toEqual({ total: 3, ids: [4] });
      expect(await list("last_name=A&page_size=10")).toEqual({ total: 3, ids: [2, 3, 4] });
    } finally {
      await here.close();
      await there.close();
    }
  });
});
