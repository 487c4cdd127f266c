import { describe, expect, it } from "vitest";
import { actionOf, keptCreationEntry, keptLatestEntry } from "./entries.js";
import type { StoredRecord } from "../model/record.js";

describe("actionOf", () => {
  it.each([
    { name: "the first write at version 1", input: { version: 1, state: "updated", previousState: null }, expected: "created" },
    { name: "an update", input: { version: 2, state: "updated", previousState: "updated" }, expected: "updated" },
    { name: "a delete", input: { version: 3, state: "deleted", previousState: "updated" }, expected: "deleted" },
    { name: "a restore", input: { version: 4, state: "updated", previousState: "deleted" }, expected: "restored" },
    { name: "a write to a deleted record (obfuscate, recalc)", input: { version: 4, state: "deleted", previousState: "deleted" }, expected: "updated" },
    { name: "a delete whose previous write was purged", input: { version: 5, state: "deleted", previousState: null }, expected: "deleted" },
    { name: "an update whose previous write was purged", input: { version: 5, state: "updated", previousState: null }, expected: "updated" },
    { name: "an import of a record at version 3", input: { version: 3, state: "updated", previousState: null }, expected: "updated" },
  ] as const)("$name: $expected", ({ input, expected }) => {
    expect(actionOf(input)).toBe(expected);
  });
});

describe("entries told by the record itself", () => {
  const record = (over: Partial<StoredRecord>): StoredRecord => ({
    id: "0".repeat(24), flock: "demo", type: "person", state: "updated", data: {}, displayValue: "",
    created: "2026-01-01T00:00:00.000000", lastUpdated: "2026-01-01T00:00:00.000000", version: 1, ...over,
  });

  it.each([
    { name: "untouched", input: {}, expected: { created: 1, latest: undefined } },
    { name: "written since", input: { version: 3, lastUpdated: "2026-01-02T00:00:00.000000" }, expected: { created: null, latest: ["updated", 3] } },
    { name: "deleted", input: { version: 2, state: "deleted" as const, lastUpdated: "2026-01-02T00:00:00.000000" }, expected: { created: null, latest: ["deleted", 2] } },
  ])("$name", ({ input, expected }) => {
    const r = record(input);
    expect(keptCreationEntry(r)).toMatchObject({ action: "created", when: r.created, version: expected.created, user: null, changed_fields: null });
    const latest = keptLatestEntry(r);
    expect(latest ? [latest.action, latest.version] : undefined).toEqual(expected.latest);
  });
});
