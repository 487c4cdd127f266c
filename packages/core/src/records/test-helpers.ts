/**
 * @module records/test-helpers
 * Shared set-up for the engine tests: a memory Storage with flocks `demo` and `other`, a
 * fake clock and sequential ids.
 */
import { RecordsError } from "../errors.js";
import { createSequentialIds } from "../ids.js";
import { createMemoryStorage } from "../memory/memory.js";
import type { Storage } from "../storage/storage.js";
import { createFakeClock } from "../time.js";
import { createRecordEngine } from "./engine.js";

/** The fake clock's start, and its timestamp in the record format. */
export const START = "2026-01-15T10:00:00.000Z";
export const START_TS = "2026-01-15T10:00:00.000000";

/** A fresh engine over a memory Storage holding flocks `demo` and `other`. */
export async function setup(storage: Storage = createMemoryStorage()) {
  await storage.createFlock({ identifier: "demo", name: "Demo", created: START_TS });
  await storage.createFlock({ identifier: "other", name: "Other", created: START_TS });
  const clock = createFakeClock(START);
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds() });
  return { storage, clock, engine };
}

/** The RecordsError a promise rejects with (fails the test if it resolves or throws another error). */
export async function rejection(p: Promise<unknown>): Promise<RecordsError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RecordsError) return e;
    throw e;
  }
  throw new Error("expected the operation to fail with a RecordsError");
}
