/**
 * @module write-count
 * A count of the statements run on a connection that may have changed its database: every
 * prepared statement SQLite does not call read-only (`Statement.readonly`: INSERT, UPDATE,
 * DELETE, DDL, a PRAGMA that sets), each `exec` and each `pragma` call. The change watch
 * asks `total_changes()` only when this count moved (change-watch): a request that wrote
 * nothing then costs no statement to know that its connection changed nothing, where it
 * asked `total_changes()` at every cache lookup (five to seven times a GET). It must see
 * every statement of the connection, so `openDatabase` counts from the moment it opens it,
 * before anything is prepared; a connection opened elsewhere has no count, and the watch
 * asks `total_changes()` every time, as before.
 */
import type Database from "better-sqlite3";

/** Starts counting `client`'s writing statements (once; later calls change nothing). */
export function countWrites(client: Database.Database): void {
  if (_counts.has(client)) return;
  const count = { n: 0 };
  _counts.set(client, count);
  const prepare = client.prepare.bind(client);
  const exec = client.exec.bind(client);
  const pragma = client.pragma.bind(client);
  client.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.readonly) _counted(statement, count);
    return statement;
  }) as typeof client.prepare;
  client.exec = (source: string) => {
    count.n += 1;
    return exec(source);
  };
  client.pragma = ((source: string, options?: Database.PragmaOptions) => {
    count.n += 1;
    return pragma(source, options);
  }) as typeof client.pragma;
}

/** The count of `client`'s writing statements so far, or undefined when `countWrites` never ran on it. */
export function writeCount(client: Database.Database): (() => number) | undefined {
  const count = _counts.get(client);
  return count ? () => count.n : undefined;
}

// --- internal ---

const _counts = new WeakMap<Database.Database, { n: number }>();

/**
 * Makes each run of `statement` add one to `count` before it runs (a failed run counts too);
 * an iteration adds one again when it ends, since its changes are made as it is walked.
 */
function _counted(statement: Database.Statement<unknown[]>, count: { n: number }): void {
  const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ["run", "get", "all"] as const) {
    const original = target[method]!;
    target[method] = function (this: unknown, ...args: unknown[]) {
      count.n += 1;
      return original.apply(statement, args);
    };
  }
  const iterate = target.iterate!;
  target.iterate = function (this: unknown, ...args: unknown[]) {
    count.n += 1;
    return _countedWalk(iterate.apply(statement, args) as Iterator<unknown>, count);
  };
}

/** `rows`, adding one to `count` when the walk ends (done, stopped early or failed). */
function* _countedWalk(rows: Iterator<unknown>, count: { n: number }): Generator<unknown, void, undefined> {
  try {
    yield* { [Symbol.iterator]: () => rows };
  } finally {
    count.n += 1;
  }
}
