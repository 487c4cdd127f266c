/**
 * @module bench/lib/hand-sql
 * The physical limit for in-process reads: the same questions asked of the same database
 * file by hand, with better-sqlite3 and the simplest fast SQL a person who knows our
 * tables would write (ids of the collection and fields looked up once, the page and the
 * count as two statements, `data` parsed from JSON). The connection gets the same pragmas
 * as the engine's (`openDatabase`), so only the work done differs.
 */
import Database from "better-sqlite3";

/** A row as the hand-written queries select it, and its parsed form. */
interface Row {
  id: string;
  state: string;
  data: string;
  display_value: string;
  created: string;
  last_updated: string;
  version: number;
}

/** A page and its total, as a hand-written list returns them. */
export interface HandPage {
  total: number;
  records: Record<string, unknown>[];
}

/** Hand-written reads on one file. */
export interface HandSql {
  readonly db: Database.Database;
  /** The collection id of `flock`/`type` (the one lookup done up front). */
  cid(flock: string, type: string): number;
  /** The field id of `name` in collection `cid`. */
  fid(cid: number, name: string): number;
  /** One record by id, parsed. */
  getById(id: string): Record<string, unknown> | undefined;
  /**
   * A page of the records of `cid` in state `updated` meeting `where` (over `records r`,
   * with `args`), ordered by insertion, and `count(*)` of them. With `fromEnd`, the page is
   * read backwards from the last match.
   */
  list(cid: number, where: string, args: unknown[], page: { limit: number; offset: number; fromEnd?: boolean }): HandPage;
  close(): void;
}

/** Opens `file` read-only with the engine's read pragmas. */
export function openHandSql(file: string): HandSql {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma("temp_store = MEMORY");
  db.pragma("cache_size = -131072");
  applyReadPragmas(db);
  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string): Database.Statement => {
    let s = statements.get(text);
    if (!s) statements.set(text, (s = db.prepare(text)));
    return s;
  };
  const byId = db.prepare<[string], Row>(
    "SELECT id, state, data, display_value, created, last_updated, version FROM records WHERE id = ?",
  );
  const parse = (r: Row) => ({ ...r, data: JSON.parse(r.data) as unknown });

  return {
    db,
    cid: (flock, type) =>
      (db.prepare("SELECT cid FROM collections WHERE flock = ? AND type = ?").get(flock, type) as { cid: number }).cid,
    fid: (cid, name) => (db.prepare("SELECT fid FROM fields WHERE cid = ? AND name = ?").get(cid, name) as { fid: number }).fid,
    getById: (id) => {
      const r = byId.get(id);
      return r ? parse(r) : undefined;
    },
    list: (cid, where, args, page) => {
      const base = `FROM records r WHERE r.cid = ? AND r.state = 'updated'${where ? ` AND ${where}` : ""}`;
      const { n } = prepare(`SELECT count(*) AS n ${base}`).get(cid, ...args) as { n: number };
      const order = page.fromEnd ? "DESC" : "ASC";
      const rows = prepare(
        `SELECT r.id, r.state, r.data, r.display_value, r.created, r.last_updated, r.version ${base} ORDER BY r.rid ${order} LIMIT ? OFFSET ?`,
      ).all(cid, ...args, page.limit, page.offset) as Row[];
      if (page.fromEnd) rows.reverse();
      return { total: n, records: rows.map(parse) };
    },
    close: () => db.close(),
  };
}

/**
 * The read pragmas both sides share beyond the engine's open ones: none today. Kept in one
 * place so that a pragma the engine gains for reads is given to the limit too.
 */
function applyReadPragmas(_db: Database.Database): void {}
