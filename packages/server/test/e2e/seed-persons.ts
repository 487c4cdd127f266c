/**
 * @module test/e2e/seed-persons
 * Writes many persons straight into a Storage (far faster than through HTTP), for the e2e
 * tests that need a long task: ids `<prefix><16 hex digits>`, in batches of one change set.
 */
import { derive, type Storage, type StoredRecord } from "@records-service/core";

/** Options of `seedPersons`. */
export interface SeedPersonsOptions {
  /** Eight characters that start every id. */
  idPrefix: string;
  lastName: string;
  /** The tags of person `i` (default none). */
  tags?: (i: number) => string[] | null;
  created: string;
  batch?: number;
}

/**
 * Inserts `count` persons of flock `demo`.
 *
 * @example
 * await seedPersons(storage, 20_000, { idPrefix: "55555555", lastName: "Seed", created: CREATED });
 */
export async function seedPersons(storage: Storage, count: number, opts: SeedPersonsOptions): Promise<void> {
  const size = opts.batch ?? 5000;
  for (let b = 0; b < count; b += size) {
    const batch: StoredRecord[] = [];
    for (let i = b; i < Math.min(count, b + size); i++) {
      const { data, displayValue } = derive("person", { first_name: `P${i}`, last_name: opts.lastName, tags: opts.tags?.(i) ?? null });
      const id = `${opts.idPrefix}${i.toString(16).padStart(16, "0")}`;
      batch.push({ id, flock: "demo", type: "person", state: "updated", data, displayValue, created: opts.created, lastUpdated: opts.created, version: 1 });
    }
    await storage.apply({ records: batch.map((record) => ({ kind: "insert" as const, record })) });
  }
}

/**
 * Walks every live person of flock `demo`: how many there are, and the ids of those not
 * changed exactly once by adding `tag` (version 2, the tag once, last).
 *
 * @example
 * expect(await taggedOnce(storage, "gala")).toEqual({ seen: 20_000, wrong: [] });
 */
export async function taggedOnce(storage: Storage, tag: string): Promise<{ seen: number; wrong: string[] }> {
  let cursor: string | null = null;
  let seen = 0;
  const wrong: string[] = [];
  do {
    const page = await storage.scanRecords("demo", "person", { filters: [], mode: "AND", states: ["updated"] }, cursor, 5000);
    for (const r of page.records) {
      seen += 1;
      const tags = r.data.tags as string[];
      if (r.version !== 2 || tags.filter((t) => t === tag).length !== 1 || tags[tags.length - 1] !== tag) wrong.push(r.id);
    }
    cursor = page.cursor;
  } while (cursor !== null);
  return { seen, wrong };
}
