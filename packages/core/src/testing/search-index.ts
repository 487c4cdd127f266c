/**
 * @module testing/search-index
 * Conformance of `searchRecords`: every term must be a word (or with `prefix` start a word)
 * of the record's search document (folded: accents and case ignored); only live records of
 * the asked types and flock, in insertion order; the index follows every write (update,
 * delete, restore) at once; the limit holds.
 */
import { expect } from "vitest";
import { F1, F2, idsOf, insertAll, rec, seedFlocks, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";

/** Declares the `SearchIndex` tests. */
export function describeSearchIndex(h: Harness): void {
  h.group("searchRecords", () => {
    h.it("matches every term as a word prefix, accents and case folded, in the asked types and flock only", async () => {
      const storage = await _seeded(h.storage());
      const find = (terms: string[], types = ["person", "organisation"], flock = F1) => _ids(storage, flock, types, terms, true);
      const whole = (terms: string[]) => _ids(storage, F1, ["person", "organisation"], terms, false);
      expect(await find(["ada"])).toEqual([1, 2]);
      expect(await find(["ada", "love"])).toEqual([1]);
      expect(await find(["zoe"])).toEqual([3]); // stored as "Zoë"
      expect(await find(["muller"])).toEqual([3]); // stored as "MÜLLER"
      expect(await find(["example"])).toEqual([1]); // an email's domain word
      expect(await find(["sw1y"])).toEqual([1]); // postal code
      expect(await find(["acme"])).toEqual([4]);
      expect(await find(["acme"], ["person"])).toEqual([]);
      expect(await find(["ada"], ["person"], F2)).toEqual([9]);
      expect(await find(["nobody"])).toEqual([]);
      expect(await find(["ovelace"])).toEqual([]); // not a word start
      expect(await find(["journal"])).toEqual([]); // other types are not indexed
      expect(await whole(["ada"])).toEqual([1]); // "adam" is not the word "ada"
      expect(await whole(["ada", "lovelace"])).toEqual([1]);
      expect(await whole(["love"])).toEqual([]);
    });

    h.it("follows updates, deletes and restores at once, and honours the limit", async () => {
      const storage = await _seeded(h.storage());
      const ada = (await storage.getRecord(F1, "person", testId(1)))!;
      const renamed: StoredRecord = { ...ada, data: { ...ada.data, last_name: "King" }, displayValue: "Ada King", version: 2 };
      await storage.apply({ records: [{ kind: "update", record: renamed, expectedVersion: 1, changed: ["last_name"] }] });
      expect(await _ids(storage, F1, ["person"], ["lovelace"])).toEqual([]);
      expect(await _ids(storage, F1, ["person"], ["king"])).toEqual([1]);
      const deleted: StoredRecord = { ...renamed, state: "deleted", version: 3 };
      await storage.apply({ records: [{ kind: "update", record: deleted, expectedVersion: 2, changed: [] }] });
      expect(await _ids(storage, F1, ["person"], ["king"])).toEqual([]);
      await storage.apply({ records: [{ kind: "update", record: { ...deleted, state: "updated", version: 4 }, expectedVersion: 3, changed: [] }] });
      expect(await _ids(storage, F1, ["person"], ["king"])).toEqual([1]);
      expect((await storage.searchRecords(F1, ["person"], ["a"], 1, true)).length).toBe(1);
      expect(await storage.searchRecords(F1, ["person"], [], 10, true)).toEqual([]);
      expect(await storage.searchRecords("nowhere", ["person"], ["ada"], 10, true)).toEqual([]);
    });

    h.it("answers whole records, as getRecord does", async () => {
      const storage = await _seeded(h.storage());
      const [found] = await storage.searchRecords(F1, ["organisation"], ["acme"], 10, true);
      expect(found).toEqual(await storage.getRecord(F1, "organisation", testId(4)));
    });
  });
}

// --- internal ---

async function _seeded(storage: Storage): Promise<Storage> {
  await seedFlocks(storage);
  const person = (n: number, data: Record<string, unknown>, display: string, over: Partial<StoredRecord> = {}) =>
    rec(n, data, { type: "person", displayValue: display, ...over });
  await insertAll(storage, [
    person(1, { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], postal_code: "SW1Y 4JH" }, "Ada Lovelace"),
    person(2, { first_name: "Adam", last_name: "Smith" }, "Adam Smith"),
    person(3, { first_name: "Zoë", last_name: "MÜLLER" }, "Zoë MÜLLER"),
    rec(4, { name: "Acme Ltd" }, { type: "organisation", displayValue: "Acme Ltd" }),
    rec(5, { title: "Ada's journal" }, { type: "journal", displayValue: "Ada's journal" }),
    person(6, { first_name: "Ada", last_name: "Gone" }, "Ada Gone", { state: "deleted" }),
    person(9, { first_name: "Ada", last_name: "Elsewhere" }, "Ada Elsewhere", { flock: F2 }),
  ]);
  return storage;
}

async function _ids(storage: Storage, flock: string, types: string[], terms: string[], prefix = true): Promise<number[]> {
  // In insertion order: the numbers come back ascending without sorting.
  return idsOf(await storage.searchRecords(flock, types, terms, 100, prefix)).map((id) => parseInt(id.slice(1), 16));
}
