/**
 * A record read by id keeps its stored data text until its data is read, so the single-record
 * answer splices it (`singleEnvelopeText`): the same bytes as the envelope of the parsed data.
 */
import { singleEnvelopeText, toSingleEnvelope } from "@records-service/core";
import { insertsOf, testRecord } from "@records-service/sql/testing";
import { describe, expect, it } from "vitest";
import { useTestStorage } from "../test/test-storage.js";

const t = useTestStorage();

describe("a record read by id", () => {
  it("gives its stored text to the single-record answer, spliced to the same bytes", async () => {
    const records = [
      testRecord(1, "person", { first_name: "Ada", last_name: "Lovelace", tags: null, email: ["ada@example.org"] }),
      testRecord(2, "person", { last_name: 'Say "hi" \\ \u0000', notes: "x:null" }),
      testRecord(3, "thing", { a: { b: [1, null] }, c: true }),
    ];
    await t.storage.apply({ records: insertsOf(records) });
    let spliced = 0;
    for (const r of records) {
      const got = await t.storage.getRecord(r.flock, r.type, r.id);
      const text = singleEnvelopeText(got!);
      const parsed = await t.storage.getRecord(r.flock, r.type, r.id);
      expect(parsed!.data).toEqual(r.data);
      if (text === undefined) continue;
      spliced += 1;
      expect(text).toBe(JSON.stringify(toSingleEnvelope(parsed!, new Map())));
    }
    // The one with escapes takes the parsing path; the others are spliced.
    expect(spliced).toBe(2);
  });
});
