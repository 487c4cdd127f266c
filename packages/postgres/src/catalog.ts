/**
 * @module catalog
 * Small integer ids for collections (flock + resource type) and for their data field
 * names, cached in memory. Ids are never changed or removed once committed, so a cached
 * id stays right; a miss always asks the database, so another process's new field is seen.
 * Ids created inside a transaction are cached only once it committed (`WriteIds.publish`):
 * the pool's other connections must never use an id that may still roll back.
 */
import { sql } from "drizzle-orm";
import { exec, type Conn } from "./exec.js";

/** The ids a transaction reads and creates; `publish` after COMMIT caches the new ones. */
export interface WriteIds {
  collectionId(flock: string, type: string): Promise<number | undefined>;
  ensureCollection(flock: string, type: string): Promise<number>;
  fieldId(cid: number, name: string): Promise<number | undefined>;
  ensureField(cid: number, name: string): Promise<number>;
  publish(): void;
}

/** Id lookups (committed ids, cached) and the per-transaction view for writes. */
export interface Catalog {
  /** The collection's id, or undefined when it has no records. */
  collectionId(c: Conn, flock: string, type: string): Promise<number | undefined>;
  /** A synchronous lookup of the named fields' ids in the collection (loaded first). */
  fieldLookup(c: Conn, cid: number, names: Iterable<string>): Promise<(name: string) => number | undefined>;
  /** The view of one write transaction on client `c`. */
  forWrite(c: Conn): WriteIds;
}

/** A catalog over the `collections` and `fields` tables. */
export function createCatalog(): Catalog {
  const collections = new Map<string, number>();
  const fieldMaps = new Map<number, Map<string, number>>();
  const fieldsOf = (cid: number): Map<string, number> => {
    let m = fieldMaps.get(cid);
    if (!m) fieldMaps.set(cid, (m = new Map()));
    return m;
  };

  const readCollection = async (c: Conn, flock: string, type: string): Promise<number | undefined> => {
    const { rows } = await exec<{ cid: number }>(
      c,
      sql`SELECT cid FROM collections WHERE flock = ${flock} AND type = ${type}`,
      "catalog_collection",
    );
    return rows[0]?.cid;
  };
  const readField = async (c: Conn, cid: number, name: string): Promise<number | undefined> => {
    const { rows } = await exec<{ fid: number }>(c, sql`SELECT fid FROM fields WHERE cid = ${cid} AND name = ${name}`, "catalog_field");
    return rows[0]?.fid;
  };

  const collectionId = async (c: Conn, flock: string, type: string): Promise<number | undefined> => {
    const key = `${flock}\u0000${type}`;
    let cid = collections.get(key);
    if (cid === undefined) {
      cid = await readCollection(c, flock, type);
      if (cid !== undefined) collections.set(key, cid);
    }
    return cid;
  };

  const fieldId = async (c: Conn, cid: number, name: string): Promise<number | undefined> => {
    const m = fieldsOf(cid);
    let fid = m.get(name);
    if (fid === undefined) {
      fid = await readField(c, cid, name);
      if (fid !== undefined) m.set(name, fid);
    }
    return fid;
  };

  return {
    collectionId,
    async fieldLookup(c, cid, names) {
      const m = fieldsOf(cid);
      const missing = [...new Set(names)].filter((n) => !m.has(n));
      if (missing.length > 0) {
        const { rows } = await exec<{ fid: number; name: string }>(
          c,
          sql`SELECT fid, name FROM fields WHERE cid = ${cid} AND name = ANY(${sql.param(missing)}::text[])`,
          "catalog_fields",
        );
        for (const r of rows) m.set(r.name, r.fid);
      }
      return (name) => m.get(name);
    },
    forWrite(c) {
      // Ids this transaction created: visible to it alone until COMMIT.
      const newCollections = new Map<string, number>();
      const newFields = new Map<number, Map<string, number>>();
      return {
        async collectionId(flock, type) {
          return newCollections.get(`${flock}\u0000${type}`) ?? (await collectionId(c, flock, type));
        },
        async ensureCollection(flock, type) {
          const key = `${flock}\u0000${type}`;
          const known = newCollections.get(key) ?? (await collectionId(c, flock, type));
          if (known !== undefined) return known;
          // ON CONFLICT waits for a concurrent insert of the same key and then reads it.
          const { rows } = await exec<{ cid: number }>(
            c,
            sql`INSERT INTO collections (flock, type) VALUES (${flock}, ${type}) ON CONFLICT DO NOTHING RETURNING cid`,
            "catalog_insert_collection",
          );
          if (rows[0]) {
            newCollections.set(key, rows[0].cid);
            return rows[0].cid;
          }
          return (await collectionId(c, flock, type))!;
        },
        async fieldId(cid, name) {
          return newFields.get(cid)?.get(name) ?? (await fieldId(c, cid, name));
        },
        async ensureField(cid, name) {
          const known = newFields.get(cid)?.get(name) ?? (await fieldId(c, cid, name));
          if (known !== undefined) return known;
          const { rows } = await exec<{ fid: number }>(
            c,
            sql`INSERT INTO fields (cid, name) VALUES (${cid}, ${name}) ON CONFLICT DO NOTHING RETURNING fid`,
            "catalog_insert_field",
          );
          if (rows[0]) {
            let m = newFields.get(cid);
            if (!m) newFields.set(cid, (m = new Map()));
            m.set(name, rows[0].fid);
            return rows[0].fid;
          }
          return (await fieldId(c, cid, name))!;
        },
        publish() {
          for (const [key, cid] of newCollections) collections.set(key, cid);
          for (const [cid, m] of newFields) for (const [name, fid] of m) fieldsOf(cid).set(name, fid);
        },
      };
    },
  };
}
