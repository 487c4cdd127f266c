/**
 * @module testing/search-index
 * Conformance of `searchRecords`: every term must be a word (or with `prefix` start a word)
 * of the record's search document (folded: accents and case ignored); only live records of
 * the asked types and flock, in insertion order; a search sees every acknowledged write
 * (update, delete, restore) whatever the index has merged (`mergeSearchIndex`), also
 * another Storage's on the same database; the limit holds.
 */
import { expect } from "vitest";
import { F1, F2, idsOf, insertAll, rec, seedFlocks, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { StoredRecord } from "../model/record.js";
import { documentMatches, searchDocument } from "../search/search-text.js";
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

    h.it("sees every acknowledged write among random writes, searches and partial merges", async () => {
      const storage = h.storage();
      await seedFlocks(storage);
      const random = _random(24);
      const names = ["ada", "adam", "grace", "hopper", "lovelace", "zoë", "ada-marie"];
      const pick = () => names[Math.floor(random() * names.length)]!;
      const live = new Map<number, StoredRecord>();
      let next = 1;
      for (let step = 0; step < 120; step++) {
        const roll = random();
        const ids = [...live.keys()];
        if (roll < 0.35 || ids.length === 0) {
          const n = next++;
          const r = rec(n, { first_name: pick(), last_name: pick() }, { type: random() < 0.8 ? "person" : "organisation" });
          await storage.apply({ records: [{ kind: "insert", record: r.type === "person" ? r : { ...r, data: { name: `${pick()} ${pick()}` } } }] });
          live.set(n, (await storage.getRecord(F1, r.type, r.id))!);
        } else if (roll < 0.65) {
          const old = live.get(ids[Math.floor(random() * ids.length)]!)!;
          const field = old.type === "person" ? "last_name" : "name";
          const next = { ...old, data: { ...old.data, [field]: pick() }, version: old.version + 1 };
          await storage.apply({ records: [{ kind: "update", record: next, expectedVersion: old.version, changed: [field] }] });
          live.set(parseInt(old.id.slice(1), 16), next);
        } else if (roll < 0.8) {
          const old = live.get(ids[Math.floor(random() * ids.length)]!)!;
          const next: StoredRecord = { ...old, state: old.state === "deleted" ? "updated" : "deleted", version: old.version + 1 };
          await storage.apply({ records: [{ kind: "update", record: next, expectedVersion: old.version, changed: [] }] });
          live.set(parseInt(old.id.slice(1), 16), next);
        } else if (roll < 0.88) {
          const moved = await storage.mergeSearchIndex(1 + Math.floor(random() * 3));
          expect(moved).toBeGreaterThanOrEqual(0);
          expect(moved).toBeLessThanOrEqual(3);
        } else {
          const terms = [pick().replace("ë", "e").replace("-", " ").split(" ")[0]!.slice(0, 2 + Math.floor(random() * 3))];
          const prefix = random() < 0.6;
          const want = [...live.entries()]
            .filter(([, r]) => {
              const doc = searchDocument(r);
              return doc !== undefined && documentMatches(doc, terms, prefix);
            })
            .map(([n]) => n)
            .sort((a, b) => a - b);
          expect(await _ids(storage, F1, ["person", "organisation"], terms, prefix), `${terms.join(" ")} prefix=${prefix}`).toEqual(want);
        }
      }
      while ((await storage.mergeSearchIndex(50)) === 50);
      expect(await storage.mergeSearchIndex(50)).toBe(0);
    });

    h.it("mergeSearchIndex moves at most its limit and nothing once the queue is empty", async () => {
      const storage = await _seeded(h.storage());
      expect(await storage.mergeSearchIndex(0)).toBe(0);
      const first = await storage.mergeSearchIndex(2);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(first).toBeLessThanOrEqual(2);
      while ((await storage.mergeSearchIndex(100)) === 100);
      expect(await storage.mergeSearchIndex(100)).toBe(0);
      expect(await _ids(storage, F1, ["person"], ["ada"])).toEqual([1, 2]);
    });

    h.it("answers whole records, as getRecord does", async () => {
      const storage = await _seeded(h.storage());
      const [found] = await storage.searchRecords(F1, ["organisation"], ["acme"], 10, true);
      expect(found).toEqual(await storage.getRecord(F1, "organisation", testId(4)));
    });
  });

  h.shared("search across two Storages on one database", (open) => {
    h.it("each sees the other's acknowledged writes; merges by both index each record once", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      const person = (n: number, last: string) => rec(n, { first_name: "Ada", last_name: last }, { type: "person" });
      const writes: Promise<void>[] = [];
      for (let i = 1; i <= 30; i++) writes.push(insertAll(i % 2 ? a : b, [person(i, i % 3 ? "lovelace" : "byron")]));
      await Promise.all(writes);
      const all = Array.from({ length: 30 }, (_, i) => i + 1);
      // Insertion order is commit order, which two Storages interleave: compared as sets.
      const sorted = async (p: Promise<number[]>) => (await p).sort((x, y) => x - y);
      expect(await sorted(_ids(b, F1, ["person"], ["ada"], false))).toEqual(all);
      const renamed = { ...(await a.getRecord(F1, "person", testId(2)))!, data: { first_name: "Ada", last_name: "byron" }, version: 2 };
      await a.apply({ records: [{ kind: "update", record: renamed, expectedVersion: 1, changed: ["last_name"] }] });
      // Both merge at once, while b searches.
      const [, , byron] = await Promise.all([a.mergeSearchIndex(7), b.mergeSearchIndex(7), b.searchRecords(F1, ["person"], ["byron"], 100, false)]);
      expect(idsOf(byron).map((id) => parseInt(id.slice(1), 16)).sort((x, y) => x - y)).toEqual(all.filter((n) => n % 3 === 0 || n === 2));
      while ((await a.mergeSearchIndex(5)) + (await b.mergeSearchIndex(5)) > 0);
      expect(await sorted(_ids(a, F1, ["person"], ["lovelace"], false))).toEqual(all.filter((n) => n % 3 !== 0 && n !== 2));
      expect(await sorted(_ids(a, F1, ["person"], ["ada"], false))).toEqual(all);
    });
  });
}

// --- internal ---

/** A small deterministic random source (mulberry32), so a failing sequence repeats. */
function _random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

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
