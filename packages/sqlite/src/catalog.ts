/**
 * @module catalog
 * Small integer ids for collections (flock + resource type) and for their data field names,
 * cached in memory. Only ids read from or written to the database are cached, and a miss
 * always asks the database, so another process adding a field is seen. `forget()` drops the
 * cache after a rolled-back transaction that may have created ids. Open types let clients
 * invent field names, so the field cache holds at most `FIELD_CACHE_SIZE` ids: past it, it
 * starts over (a miss costs one indexed lookup), and memory stays flat however many names
 * the `fields` table gathers.
 */
import type Database from "better-sqlite3";

/** Id lookups and creation; see the module comment. */
export interface Catalog {
  /** The collection's id, or undefined when it has no records. */
  collectionId(flock: string, type: string): number | undefined;
  /** The collection's id, created if missing (inside a write transaction). */
  ensureCollection(flock: string, type: string): number;
  /** The field's id in the collection, or undefined when no record of it ever had the field. */
  fieldId(cid: number, name: string): number | undefined;
  /** The field's id, created if missing (inside a write transaction). */
  ensureField(cid: number, name: string): number;
  /** Drops every cached id. */
  forget(): void;
  /** How many field ids are cached now (at most `FIELD_CACHE_SIZE`). */
  cachedFieldCount(): number;
}

/** Most field ids kept in memory, over all collections. */
export const FIELD_CACHE_SIZE = 50_000;

/** A catalog over the `collections` and `fields` tables. */
export function createCatalog(client: Database.Database): Catalog {
  const selCollection = client.prepare<[string, string], { cid: number }>(
    "SELECT cid FROM collections WHERE flock = ? AND type = ?",
  );
  const insCollection = client.prepare<[string, string]>("INSERT INTO collections (flock, type) VALUES (?, ?)");
  const selField = client.prepare<[number, string], { fid: number }>("SELECT fid FROM fields WHERE cid = ? AND name = ?");
  const insField = client.prepare<[number, string]>("INSERT INTO fields (cid, name) VALUES (?, ?)");

  const collections = new Map<string, number>();
  const fieldMaps = new Map<number, Map<string, number>>();
  let cachedFields = 0;

  const cacheField = (cid: number, name: string, fid: number): void => {
    if (cachedFields >= FIELD_CACHE_SIZE) {
      fieldMaps.clear();
      cachedFields = 0;
    }
    fieldsOf(cid).set(name, fid);
    cachedFields += 1;
  };

  const collectionId = (flock: string, type: string): number | undefined => {
    const key = `${flock}\u0000${type}`;
    let cid = collections.get(key);
    if (cid === undefined) {
      cid = selCollection.get(flock, type)?.cid;
      if (cid !== undefined) collections.set(key, cid);
    }
    return cid;
  };

  const fieldsOf = (cid: number): Map<string, number> => {
    let m = fieldMaps.get(cid);
    if (!m) fieldMaps.set(cid, (m = new Map()));
    return m;
  };

  const fieldId = (cid: number, name: string): number | undefined => {
    const m = fieldsOf(cid);
    let fid = m.get(name);
    if (fid === undefined) {
      fid = selField.get(cid, name)?.fid;
      if (fid !== undefined) cacheField(cid, name, fid);
    }
    return fid;
  };

  return {
    collectionId,
    ensureCollection(flock, type) {
      const cid = collectionId(flock, type);
      if (cid !== undefined) return cid;
      const created = Number(insCollection.run(flock, type).lastInsertRowid);
      collections.set(`${flock}\u0000${type}`, created);
      return created;
    },
    fieldId,
    ensureField(cid, name) {
      const fid = fieldId(cid, name);
      if (fid !== undefined) return fid;
      const created = Number(insField.run(cid, name).lastInsertRowid);
      cacheField(cid, name, created);
      return created;
    },
    forget() {
      collections.clear();
      fieldMaps.clear();
      cachedFields = 0;
    },
    cachedFieldCount: () => cachedFields,
  };
}
