/**
 * @module changes
 * The change feed's log on SQLite: `append` runs inside `apply`'s transaction (SQLite
 * serialises write transactions, so the ids a flock's head hands out follow commit order),
 * `read` answers a page with the head and purge mark in one snapshot, `purge` cuts the
 * oldest rows per flock.
 */
import { byFlock, changeFromRow, changePurgeWindowEnd, type Attribution, type ChangePage, type ChangeTableRow, type PendingChange } from "@records-service/core";
import type Database from "better-sqlite3";

/** The change log on one connection. */
export interface ChangeLog {
  /** Gives `pending` their ids and stores them with the set's attribution (call inside the write transaction). */
  append(pending: readonly PendingChange[], attribution?: Attribution): void;
  read(flock: string, after: number, limit: number, types?: readonly string[]): ChangePage;
  /** The heads of those of `flocks` that have a log (`Storage.readChangeHeads`). */
  heads(flocks: readonly string[]): Map<string, number>;
  purge(before: string, limit?: number): number;
}

/** The change log over `client`. */
export function createChangeLog(client: Database.Database): ChangeLog {
  // No RETURNING: SQLite runs a RETURNING statement through an ephemeral table whose page
  // cache it clears on every call (25 µs a write, a twentieth of an in-memory create).
  const bump = client.prepare<[string, number, number]>(
    `INSERT INTO change_heads (flock, last_id) VALUES (?, ?)
     ON CONFLICT (flock) DO UPDATE SET last_id = last_id + ?`,
  );
  const ins = client.prepare(
    "INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields, actor, application) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const head = client.prepare<[string], { last_id: number; purged_through: number }>(
    "SELECT last_id, purged_through FROM change_heads WHERE flock = ?",
  );
  const page = client.prepare<[string, number, number], ChangeTableRow>(
    "SELECT * FROM changes WHERE flock = ? AND id > ? ORDER BY id LIMIT ?",
  );
  // One type's next changes by (flock, type, id), named: without ANALYZE the planner may
  // walk the flock's whole log by id instead, reading every change of the other types.
  const pageOfType = client.prepare<[string, string, number, number], ChangeTableRow>(
    "SELECT * FROM changes INDEXED BY changes_type_idx WHERE flock = ? AND type = ? AND id > ? ORDER BY id LIMIT ?",
  );
  const headsOf = client.prepare<[string], { flock: string; last_id: number }>(
    "SELECT flock, last_id FROM change_heads WHERE flock IN (SELECT value FROM json_each(?))",
  );
  const flocks = client.prepare<[], { flock: string }>("SELECT flock FROM change_heads ORDER BY flock");
  // The last old change among the next `limit` after the purge mark: a range of the key,
  // not a walk of every expired entry (which made each chunk cost the whole backlog).
  const lastBefore = client.prepare<[string, number, number, string], { id: number | null }>(
    "SELECT max(id) AS id FROM changes WHERE flock = ? AND id > ? AND id <= ? AND changed_at < ?",
  );
  const del = client.prepare("DELETE FROM changes WHERE flock = ? AND id <= ?");
  const mark = client.prepare("UPDATE change_heads SET purged_through = max(purged_through, ?) WHERE flock = ?");

  const read = client.transaction((flock: string, after: number, limit: number, types?: readonly string[]): ChangePage => {
    const h = head.get(flock);
    if (!h) return { changes: [], head: 0, purgedThrough: 0 };
    const rows = types && types.length > 0 ? _merged([...new Set(types)].map((t) => pageOfType.all(flock, t, after, limit)), limit) : page.all(flock, after, limit);
    return { changes: rows.map((r) => changeFromRow(flock, r)), head: h.last_id, purgedThrough: h.purged_through };
  });

  const purge = client.transaction((before: string, limit: number): number => {
    let removed = 0;
    for (const { flock } of flocks.all()) {
      // The purge window (see `changePurgeWindowEnd`): a key range, not a walk of the backlog.
      const purged = head.get(flock)!.purged_through;
      const cut = lastBefore.get(flock, purged, changePurgeWindowEnd(purged, limit - removed), before)?.id;
      if (cut === null || cut === undefined) continue;
      removed += del.run(flock, cut).changes;
      mark.run(cut, flock);
      if (removed >= limit) break;
    }
    return removed;
  });

  const fieldsJson = _lastJson();
  return {
    append(pending, attribution) {
      const actor = attribution?.actor ?? null;
      const application = attribution?.application ?? null;
      for (const [flock, group] of byFlock(pending)) {
        bump.run(flock, group.length, group.length);
        const last = head.get(flock)!.last_id;
        let id = last - group.length;
        for (const c of group) {
          ins.run(flock, ++id, c.type, c.recordId, c.state, c.version, c.changedAt, fieldsJson(c.fields), actor, application);
        }
      }
    },
    read: (flock, after, limit, types) => read.deferred(flock, after, limit, types),
    heads: (flocks) => new Map(headsOf.all(JSON.stringify([...new Set(flocks)])).map((r) => [r.flock, r.last_id])),
    purge: (before, limit = Number.MAX_SAFE_INTEGER) => purge.immediate(before, limit),
  };
}

// --- internal ---

/**
 * `JSON.stringify` of a list of field names, reusing the last text when the list holds the
 * same names: every insert of a type logs all its fields, the same ~77 for each person an
 * import writes.
 */
function _lastJson(): (fields: readonly string[]) => string {
  let last: readonly string[] = [];
  let text = "[]";
  return (fields) => {
    if (!_sameNames(fields, last)) {
      text = JSON.stringify(fields);
      last = [...fields];
    }
    return text;
  };
}

function _sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first `limit` rows, in id order, of pages that are each in id order (one per type). */
function _merged(pages: ChangeTableRow[][], limit: number): ChangeTableRow[] {
  if (pages.length === 1) return pages[0]!;
  return pages
    .flat()
    .sort((a, b) => Number(a.id) - Number(b.id))
    .slice(0, limit);
}
