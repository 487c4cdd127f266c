/**
 * @module db-value
 * What a `--db` (or `DATABASE_URL`) value may be: a PostgreSQL URL that parses, a SQLite
 * file path, or `:memory:`. A value that looks like a URL but is not a PostgreSQL one
 * (`postgres:/x`, `postgresql//x`, `postgress://x`, `mysql://x`, `file:x`) is refused, so
 * a typo never becomes a new, empty SQLite file in a folder named after the URL.
 */

/** The forms a database value may take, for messages. */
export const DB_FORMS = "expected postgres://user[:password]@host[:port]/database, a SQLite file path such as ./data/records.db, or :memory:";

/**
 * Why `db` cannot name a database (one line, naming `source`), or undefined when it can.
 *
 * @example
 * checkDbValue("postgres:/bad", "--db") // 'bad --db "postgres:/bad": not a valid PostgreSQL URL; expected postgres://...'
 * checkDbValue("./data/records.db", "--db") // undefined
 */
export function checkDbValue(db: string, source: string): string | undefined {
  if (db === ":memory:") return undefined;
  const shown = JSON.stringify(db.length > 60 ? `${db.slice(0, 60)}...` : db);
  const scheme = _scheme(db);
  if (scheme === undefined) return undefined;
  if (/^postgres(ql)?$/i.test(scheme) && /^[a-z]+:\/\//i.test(db)) {
    const problem = _postgresProblem(db);
    return problem === undefined ? undefined : `bad ${source} ${shown}: ${problem}; ${DB_FORMS}`;
  }
  if (/^postgres/i.test(scheme)) return `bad ${source} ${shown}: not a valid PostgreSQL URL; ${DB_FORMS}`;
  if (/^(file|sqlite3?)$/i.test(scheme)) {
    return `bad ${source} ${shown}: give a SQLite file as a plain path (./data/records.db), not a ${scheme.toLowerCase()}: URL; ${DB_FORMS}`;
  }
  return `bad ${source} ${shown}: looks like a URL with scheme "${scheme}:", which is not a database this service opens; ${DB_FORMS}`;
}

// --- internal ---

/**
 * The URL scheme `db` seems to start with, or undefined for a path. A scheme is a word of
 * two or more characters followed by `:` (one letter and `:` is a Windows drive), or a
 * word followed by `//` (a URL that lost its colon); `://` anywhere is a URL too.
 */
function _scheme(db: string): string | undefined {
  const colon = /^([a-z][a-z0-9+.-]+):/i.exec(db);
  if (colon) return colon[1];
  const lostColon = /^([a-z][a-z0-9+.-]*)\/\//i.exec(db);
  if (lostColon) return lostColon[1];
  const inner = /([a-z][a-z0-9+.-]*):\/\//i.exec(db);
  return inner ? inner[1] : undefined;
}

/** What is wrong with a `postgres://` value, or undefined when it parses with a host (or a `host=` socket folder). */
function _postgresProblem(db: string): string | undefined {
  let u: URL;
  try {
    u = new URL(db);
  } catch {
    return "not a valid PostgreSQL URL";
  }
  if (u.hostname === "" && !u.searchParams.get("host")) return "the URL names no host";
  if (u.port !== "" && !/^\d+$/.test(u.port)) return "the URL's port is not a number";
  return undefined;
}
