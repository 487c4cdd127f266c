/**
 * @module connect
 * The connection pool of a PostgreSQL storage: made from a URL with the service's
 * settings (pool size, statement timeout, connect timeout), or handed in by the caller,
 * who then owns it. Either way an idle connection that breaks (the server restarts, the
 * network drops) must not crash the process, so the pool gets an `error` listener.
 */
import { badRequest } from "@records-service/core";
import pg from "pg";

/** Where the database is: a `postgres://` URL, or a pool the caller made (and closes). */
export type PostgresTarget = { url: string } | { pool: pg.Pool };

/** Connection settings; used only with `{ url }` (a caller's pool keeps its own). */
export interface PostgresPoolOptions {
  /** Most connections open at once. Default 10. */
  poolSize?: number;
  /** A statement running longer is cancelled (the request fails as "database unavailable"). Default 30,000 ms; 0 = none. */
  statementTimeoutMs?: number;
  /** How long to wait for a connection (new or from the full pool). Default 5,000 ms. */
  connectTimeoutMs?: number;
  /** Shown in `pg_stat_activity`. Default "records-service". */
  applicationName?: string;
}

/** The pool and whether closing the storage ends it. */
export interface PoolHandle {
  pool: pg.Pool;
  owned: boolean;
  /** `host:port/database` for messages (never the password). */
  where: string;
}

/**
 * Opens a pool for `target` (no connection is made until the first query).
 *
 * @example
 * const { pool } = openPool({ url: "postgres://app@db:5432/records" }, { poolSize: 20 });
 */
export function openPool(target: PostgresTarget, opts: PostgresPoolOptions = {}): PoolHandle {
  if ("pool" in target) {
    _quietErrors(target.pool);
    return { pool: target.pool, owned: false, where: describePool(target.pool) };
  }
  _checkUrl(target.url);
  const timeout = opts.statementTimeoutMs ?? 30_000;
  const pool = new pg.Pool({
    connectionString: target.url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    application_name: opts.applicationName ?? "records-service",
    ...(timeout > 0 ? { statement_timeout: timeout } : {}),
  });
  _quietErrors(pool);
  return { pool, owned: true, where: describePool(pool) };
}

/** `host:port/database` of a pool's settings. */
function describePool(pool: pg.Pool): string {
  const o = pool.options as { host?: string; port?: number; database?: string; connectionString?: string };
  if (o.connectionString) {
    try {
      const u = new URL(o.connectionString);
      return `${u.hostname || "localhost"}:${u.port || 5432}${u.pathname}`;
    } catch {
      return "the configured server";
    }
  }
  return `${o.host ?? process.env.PGHOST ?? "localhost"}:${o.port ?? process.env.PGPORT ?? 5432}/${o.database ?? ""}`;
}

// --- internal ---

/** Refuses what is not a `postgres://` / `postgresql://` URL, before the driver half-parses it. */
function _checkUrl(url: string): void {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || !/^postgres(ql)?:$/.test(u.protocol) || (u.port !== "" && !/^\d+$/.test(u.port))) {
    const expected = "expected postgres://user[:password]@host[:port]/database";
    throw badRequest(`invalid database URL (${expected})`, expected);
  }
}

const _quieted = new WeakSet<pg.Pool>();

/**
 * An idle client's error (its connection died) is emitted on the pool; unheard, Node would
 * throw it and end the process. The pool drops that client; the next query reconnects or
 * fails as "database unavailable".
 */
function _quietErrors(pool: pg.Pool): void {
  if (_quieted.has(pool)) return;
  _quieted.add(pool);
  pool.on("error", () => {});
}
