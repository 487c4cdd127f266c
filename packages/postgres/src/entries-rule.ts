/**
 * @module entries-rule
 * Keeps `records_entries` exact when this server's ICU and the service's JavaScript fold
 * some characters differently (their Unicode versions differ: a letter newer than the
 * server's ICU has a lower case in JavaScript only). Each (server ICU, Node Unicode) pair
 * is compared once, character by character; characters folded differently join the class
 * in `records_entries_rule.pattern`, and the records whose data holds one get every
 * field's entries, so a filter reads them from `record_values`, which JavaScript folded.
 * docs/decisions.md, "The index registry on PostgreSQL".
 */
import { valueRows } from "@records-service/sql";
import type pg from "pg";
import { insertValues, type ValueInsert } from "./values.js";

/** The registry's advisory lock space (field-indexes.ts); key 0 guards the pattern. */
const RULE_LOCK: [number, number] = [1919509624, 0];

/**
 * Compares the server's `records_fold` with `toLowerCase` for every character unless this
 * pair of versions was compared before, and widens the rule by the characters they fold
 * differently. Run by `migrateDatabase` under its lock. Returns the characters added.
 */
export async function checkFolding(c: pg.PoolClient): Promise<number> {
  const { rows: versions } = await c.query<{ v: string | null }>("SELECT collversion AS v FROM pg_collation WHERE collname = 'und-x-icu'");
  const pair = `${versions[0]?.v ?? "no-icu"}/${process.versions.unicode ?? "?"}`;
  const rule = (await c.query<{ checked: string[] }>("SELECT checked FROM records_entries_rule")).rows[0];
  if (!rule || rule.checked.includes(pair)) return 0;
  const { rows: folded } = await c.query<{ cp: number; f: string }>(
    `SELECT cp, records_fold(chr(cp)) AS f FROM generate_series(1, 1114111) cp
     WHERE cp NOT BETWEEN 55296 AND 57343 AND records_fold(chr(cp)) <> chr(cp)`,
  );
  const server = new Map(folded.map((r) => [r.cp, r.f]));
  const differ: number[] = [];
  for (let cp = 1; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (ch.toLowerCase() !== (server.get(cp) ?? ch)) differ.push(cp);
  }
  await c.query("BEGIN");
  try {
    // Writers and steps read the pattern under this lock, shared: none is between reading it and committing.
    await c.query("SELECT pg_advisory_xact_lock($1, $2)", RULE_LOCK);
    const now = (await c.query<{ base: string; folds: number[] }>("SELECT base, folds FROM records_entries_rule FOR UPDATE")).rows[0]!;
    const known = new Set(now.folds);
    const added = differ.filter((cp) => !known.has(cp));
    const folds = [...now.folds, ...added].sort((a, b) => a - b);
    // Letters only (never ASCII, nor a class's special characters): literal in both dialects.
    const pattern = folds.length === 0 ? now.base : `${now.base}|[${String.fromCodePoint(...folds)}]`;
    await c.query("UPDATE records_entries_rule SET pattern = $1, folds = $2, checked = array_append(checked, $3)", [pattern, folds, pair]);
    if (added.length > 0) await _storeAllEntries(c, `[${String.fromCodePoint(...added)}]`);
    await c.query("COMMIT");
    return added.length;
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  }
}

// --- internal ---

/** Rewrites every field's entries of the records whose data matches `pattern`. */
async function _storeAllEntries(c: pg.PoolClient, pattern: string): Promise<void> {
  const { rows } = await c.query<{ rid: string; cid: number; data: string }>("SELECT rid, cid, data FROM records WHERE data ~ $1 FOR SHARE", [pattern]);
  for (let i = 0; i < rows.length; i += _CHUNK) {
    const chunk = rows.slice(i, i + _CHUNK);
    await c.query("DELETE FROM record_values WHERE rid = ANY($1::bigint[])", [chunk.map((r) => r.rid)]);
    const values: ValueInsert[] = [];
    for (const row of chunk) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      for (const [field, value] of Object.entries(data)) {
        const entries = valueRows(value);
        if (entries.length === 0) continue;
        await c.query("INSERT INTO fields (cid, name) VALUES ($1, $2) ON CONFLICT DO NOTHING", [row.cid, field]);
        const fid = (await c.query<{ fid: number }>("SELECT fid FROM fields WHERE cid = $1 AND name = $2", [row.cid, field])).rows[0]!.fid;
        for (const e of entries) values.push({ rid: Number(row.rid), fid, ...e });
      }
    }
    await insertValues(c, values);
  }
}

/** Records rewritten per statement. */
const _CHUNK = 500;
