/**
 * @module @records-service/sqlite/testing
 * Files as an older version left them, for migration tests: `rewindMigrations` takes a file
 * this version made (and filled) back to before a migration, undoing the schema changes of
 * it and every later one and forgetting that they ran, so the next open runs them again
 * over the file's rows, as it would over a file the older version wrote.
 *
 * @example
 * const raw = openDatabase({ path }).$client; // fill it through a Storage first, if wanted
 * rewindMigrations(raw, "0012_field_indexes");
 * raw.close();
 * const storage = createSqliteStorage({ path }); // runs 0012 and every later migration
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { MIGRATIONS_FOLDER } from "./open.js";

/**
 * Undoes, newest first, the schema changes of migration `tag` and of every later one, and
 * removes their rows from `__drizzle_migrations`. Throws for a migration without an undo
 * here (each new migration adds one), or a `tag` that is not a migration.
 */
export function rewindMigrations(client: Database.Database, tag: string): void {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`rewindMigrations: no migration ${tag}`);
  for (const m of journal.entries.slice(at).reverse()) {
    const undo = _UNDO[m.tag];
    if (undo === undefined) throw new Error(`rewindMigrations: no undo for migration ${m.tag}`);
    client.exec(undo);
  }
  client.prepare("DELETE FROM __drizzle_migrations WHERE created_at >= ?").run(journal.entries[at]!.when);
}

// --- internal ---

/** The schema changes of the migrations from 0003 on, undone ("" for one that changes only data). */
const _UNDO: Record<string, string> = {
  "0003_member_accounts": "",
  "0004_claims": `DROP INDEX records_dedupe_key_idx; DROP INDEX outbox_claim_idx;
    ALTER TABLE outbox DROP COLUMN claim_token; ALTER TABLE outbox DROP COLUMN claimed_until;`,
  "0005_change_feed": "DROP TABLE changes; DROP TABLE change_heads;",
  "0006_search": "DROP TABLE record_search;",
  "0007_change_attribution": "DROP INDEX changes_record_idx; ALTER TABLE changes DROP COLUMN actor; ALTER TABLE changes DROP COLUMN application;",
  "0008_change_feed_type": "DROP INDEX changes_type_idx;",
  "0009_search_pending": "DROP TABLE search_pending;",
  "0010_folded_when_different": `CREATE TABLE old_record_values (rid integer NOT NULL, fid integer NOT NULL, kind integer NOT NULL,
      text text NOT NULL, folded text NOT NULL, num real, PRIMARY KEY (rid, fid, kind, text)) WITHOUT ROWID;
    INSERT INTO old_record_values SELECT rid, fid, kind, text, coalesce(folded, replace(text, 'T', 't')), num FROM record_values;
    DROP TABLE record_values; ALTER TABLE old_record_values RENAME TO record_values;
    CREATE INDEX record_values_fid_text_idx ON record_values (fid, text);
    CREATE INDEX record_values_fid_folded_idx ON record_values (fid, folded);
    CREATE INDEX record_values_fid_num_idx ON record_values (fid, num) WHERE num IS NOT NULL;`,
  "0011_ticket_stock": "DROP TABLE ticket_stock; DROP TABLE ticket_stock_backfill;",
  "0012_field_indexes": "DROP TABLE field_indexes;",
  "0013_changes_rowid": `CREATE TABLE old_changes (flock text NOT NULL, id integer NOT NULL, type text NOT NULL,
      record_id text NOT NULL, state text NOT NULL, version integer NOT NULL, changed_at text NOT NULL,
      fields text NOT NULL, actor text, application text, PRIMARY KEY (flock, id)) WITHOUT ROWID;
    INSERT INTO old_changes SELECT flock, id, type, record_id, state, version, changed_at, fields, actor, application FROM changes;
    DROP TABLE changes; ALTER TABLE old_changes RENAME TO changes;
    CREATE INDEX changes_flock_changed_at_idx ON changes (flock, changed_at);
    CREATE INDEX changes_record_idx ON changes (flock, type, record_id, id);
    CREATE INDEX changes_type_idx ON changes (flock, type, id);`,
  "0014_dedupe_key_column": `DROP INDEX records_dedupe_key_idx; ALTER TABLE records DROP COLUMN dedupe_key;
    CREATE UNIQUE INDEX records_dedupe_key_idx ON records (cid, json_extract(data, '$.dedupe_key')) WHERE json_extract(data, '$.dedupe_key') IS NOT NULL;`,
  "0015_account_changes": `${["flocks", "users", "api_keys"]
    .flatMap((t) => ["insert", "update", "delete"].map((e) => `DROP TRIGGER ${t}_${e}_counted;`))
    .join(" ")} DROP TABLE account_changes;`,
  "0016_pages_per_create": "DROP INDEX records_cid_deleted_idx; CREATE INDEX records_cid_state_idx ON records (cid, state);",
  "0017_changes_record_idx": "DROP INDEX changes_record_idx; CREATE INDEX changes_record_idx ON changes (flock, type, record_id, id);",
};
