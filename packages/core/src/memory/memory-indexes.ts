/**
 * @module memory/memory-indexes
 * The reference adapter's index registry: the rows in a map. The memory adapter answers
 * every filter by evaluating it, so it has no entries to write or remove: a back-fill or a
 * removal finishes at its first step.
 */
import { compareFieldIndexRows, EVERY_FLOCK, isIndexedByDefault, type FieldIndexRow } from "../model/field-index.js";
import type { IndexRegistry } from "../storage/index-registry.js";

/** A fresh, empty registry. */
export function createMemoryIndexRegistry(): IndexRegistry {
  const rows = new Map<string, FieldIndexRow>();
  const keyOf = (flock: string, type: string, field: string) => JSON.stringify([flock, type, field]);
  const copy = (r: FieldIndexRow): FieldIndexRow => ({ ...r });
  return {
    async listFieldIndexes(flock, type) {
      return [...rows.values()]
        .filter((r) => (r.flock === flock || r.flock === EVERY_FLOCK) && (type === undefined || r.type === type))
        .sort(compareFieldIndexRows)
        .map(copy);
    },
    async setFieldIndex(flock, type, field, wish, source) {
      const key = keyOf(flock, type, field);
      const now = rows.get(key);
      const same = now && (wish === "drop" ? now.state === "dropped" : now.state !== "dropped");
      if (now && same) {
        if (now.source === "demand" && source !== "demand") now.source = source;
        return copy(now);
      }
      const row: FieldIndexRow = { flock, type, field, state: wish === "drop" ? "dropped" : "building", source, progress: 0 };
      rows.set(key, row);
      return copy(row);
    },
    async removeFieldIndex(flock, type, field) {
      const key = keyOf(flock, type, field);
      const now = rows.get(key);
      if (now && now.state !== "ready" && isIndexedByDefault(type, field)) {
        // Not all its entries are there: built first, then the defaults rule.
        Object.assign(now, { source: "default" }, now.state === "dropped" ? { state: "building", progress: 0 } : {});
        return true;
      }
      return rows.delete(key);
    },
    async stepFieldIndexes(limit) {
      let walked = 0;
      for (const [key, r] of rows) {
        if (walked >= limit) break;
        if (r.progress >= 1) continue;
        walked += 1;
        if (r.state === "building" && r.source === "default") rows.delete(key);
        else if (r.state === "building") Object.assign(r, { state: "ready", progress: 1 });
        else if (r.source === "migration") rows.delete(key);
        else r.progress = 1;
      }
      return walked;
    },
  };
}
