/**
 * A list page's records keep their stored data text, and the list answer writes it as it
 * is: the answer is byte for byte the one parsing every record and serializing the wrapper
 * gives, for data holding NUL, lone surrogates, escapes, numbers and nesting.
 */
import { listAnswerText, toListWrapper, type ListQuery, type StoredRecord } from "@records-service/core";
import { insertsOf, testRecord } from "@records-service/sql/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

const storage = createSqliteStorage({ path: ":memory:" });
afterAll(() => storage.close());

const DATA: Record<string, unknown>[] = [
  { last_name: "Lovelace", first_name: "Ada" },
  { last_name: "a\u0000b\u0001\u001f\u007f\n\t", first_name: "\ud800 and \udfff alone, \ud83d\ude00 paired" },
  { last_name: 'quotes " and \\ and / and \u2028', "key \"with\" \\ escapes\u0000": [1, -2.5, 1e21, 0, null, true] },
  { last_name: "Łódź", nested: { b: { c: [[], {}] }, a: "x" }, "1": "an index key" },
  {},
];

await storage.apply({ records: insertsOf(DATA.flatMap((data, n) => [testRecord(n + 1, "person", data, { flock: "demo" }), testRecord(n + 101, "thing", data, { flock: "demo" })])) });

const query: ListQuery = { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 25 };

describe("the list answer from stored text", () => {
  it.each(["person", "thing"])("is what parsing and serializing give (%s)", async (type) => {
    const page = await storage.listRecords("demo", type, query);
    expect(page.records).toHaveLength(DATA.length);
    // Copies with their data read: the path every byte was pinned by before.
    const parsed = { total: page.total, records: page.records.map((r): StoredRecord => ({ ...r })) };
    expect(await listAnswerText(await storage.listRecords("demo", type, query), query)).toBe(JSON.stringify(toListWrapper(parsed, query)));
  });
});
