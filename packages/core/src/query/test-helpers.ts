/**
 * @module query/test-helpers
 * Small helpers shared by the query language's tests (not part of the public API).
 */
import { isRecordsError, type RecordsError } from "../errors.js";
import type { StoredRecord } from "../model/record.js";
import { parseListQuery, type ParseOptions } from "./parse.js";
import type { ListQuery } from "../model/query.js";

/** The fixed instant the query tests resolve smart dates against. */
export const TEST_NOW = new Date("2026-03-31T08:15:30.123Z");

/** Runs `fn` and returns the RecordsError it throws; fails the test if it throws none. */
export function errorOf(fn: () => unknown): RecordsError {
  try {
    fn();
  } catch (e) {
    if (isRecordsError(e)) return e;
    throw e;
  }
  throw new Error("expected a RecordsError, but nothing was thrown");
}

/** Parses a query string, v2 surface and `TEST_NOW` unless told otherwise. */
export function parseQs(qs: string, opts: Partial<ParseOptions> = {}): ListQuery {
  return parseListQuery(new URLSearchParams(qs), { surface: "v2", now: TEST_NOW, ...opts });
}

/** A stored person record with the given data; id, dates and state can be overridden. */
export function makeRecord(data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: "000000000000000000000001",
    flock: "demo",
    type: "person",
    state: "updated",
    data,
    displayValue: "",
    created: "2026-03-01T09:00:00.000000",
    lastUpdated: "2026-03-20T09:00:00.000000",
    version: 1,
    ...over,
  };
}
