/**
 * @module testing/record-store
 * Conformance of `RecordStore`: reads and the atomic `apply`, lists, walks, picked field values, the purge of
 * records for good, and the dedupe keys of data events (one file per part).
 */
import type { Harness } from "./harness.js";
import { describeDedupeKeys } from "./records-dedupe.js";
import { describeFieldValues } from "./records-field-values.js";
import { describeListing } from "./records-list.js";
import { describeSorting } from "./records-sort.js";
import { describeDeleteRecords } from "./records-purge.js";
import { describeScan } from "./records-scan.js";
import { describeRecords } from "./records-write.js";

/** Declares the `RecordStore` tests. */
export function describeRecordStore(h: Harness): void {
  describeRecords(h);
  describeListing(h);
  describeSorting(h);
  describeScan(h);
  describeFieldValues(h);
  describeDeleteRecords(h);
  describeDedupeKeys(h);
}
