/**
 * @module change-watch
 * One number that moves whenever the database may have changed, for caches of things read
 * from it (the account lookups, the server's serialized responses): `Storage.changeGeneration`.
 * This process's writes move it at once; other processes' commits when their notification
 * arrives (a trigger on every table notifies channel `records_changes` at commit: within
 * milliseconds). The watch listens on a connection of its own; while that connection is
 * not listening (opening, lost, reconnecting) every call returns a new number, so nothing
 * is cached against a database whose changes could go unseen.
 *
 * A notification can arrive after the commit was acknowledged, so it alone leaves a window
 * in which a read through this process meets an entry cached before another process's
 * acknowledged write. `sync` closes it: it reads the server's current snapshot
 * (`pg_current_snapshot()`: which transactions are visible) and moves the generation when
 * it differs from the one last seen. A commit changes the snapshot exactly when it becomes
 * visible, which is before it is acknowledged, so a sync begun after the acknowledgement
 * moves the generation unless a sync already saw that commit visible, and everything
 * cached since that sync was read after it. The server syncs once per request; any commit
 * (a limit row too) moves the snapshot, which costs cache hits, never correctness.
 *
 * Syncs are shared: while one is on its way, every call joins the next, which starts when
 * that one is answered. A call needs a read begun after it was made, and the next one is,
 * so concurrent requests pay one round trip between them, not one each (at most two
 * round trips' wait for any one of them).
 *
 * The account lookups (key, user, flock: every request's first reads) follow a second
 * number, `accountGeneration`, which moves only with changes to those tables: this
 * process's account writes, a notification with payload `accounts`, and a sync that finds
 * `account_generation.n` moved (a trigger moves it in every writer's transaction, so it is
 * visible exactly when the change is; the same argument as the snapshot's holds). The sync
 * reads both in one statement, so a record write no longer costs the next request three
 * account reads.
 */
import pg from "pg";

/** The database's change generation (see the module comment). */
export interface ChangeWatch {
  generation(): number;
  /** Moves only with changes to flocks, users and API keys (see the module comment). */
  accountGeneration(): number;
  /** Marks a change made by this process (call when a write starts and when it ends); `accounts` for the account tables. */
  touch(accounts?: boolean): void;
  /** Reads the server's snapshot and account number and moves the generations that changed (see the module comment). */
  sync(): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}

/** What a sync reads, in one statement: the server's snapshot and the account tables' number. */
export interface DatabaseMarks {
  /** `pg_current_snapshot()` as text. */
  snapshot: string;
  /** `account_generation.n` as text. */
  accounts: string;
}

/** Options of `createChangeWatch`. */
export interface ChangeWatchOptions {
  /** Reads the marks (on any connection of the database). */
  marks: () => Promise<DatabaseMarks>;
  /** Wait before listening again after the connection was lost, in ms. Default 1000. */
  retryMs?: number;
}

/** The notification channel the migrations' triggers notify. */
const CHANGE_CHANNEL = "records_changes";
/** The payload of the account tables' notifications. */
const ACCOUNTS_PAYLOAD = "accounts";

/**
 * Starts listening on a connection made with `config` (the pool's settings).
 *
 * @example
 * const watch = createChangeWatch(pool.options, { marks: () => readMarks(pool) });
 * const g = watch.generation(); // ... later: watch.generation() !== g once anything was written
 */
export function createChangeWatch(config: pg.ClientConfig, opts: ChangeWatchOptions): ChangeWatch {
  const retryMs = opts.retryMs ?? 1000;
  let generation = 0;
  let accounts = 0;
  // The last marks seen; the sync on its way and the one queued behind it (see the module comment).
  let snapshot: string | undefined;
  let accountsMark: string | undefined;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ ...config, statement_timeout: 0 } as pg.ClientConfig);
    client = c;
    const lost = () => {
      if (client !== c) return;
      listening = false;
      client = undefined;
      c.end().catch(() => {});
      if (!closed) timer = setTimeout(() => void connect(), retryMs);
    };
    c.on("error", lost);
    c.on("end", lost);
    c.on("notification", (n) => {
      generation += 1;
      if (n.payload === ACCOUNTS_PAYLOAD) accounts += 1;
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (client !== c) return;
      listening = true;
      // Changes made while not listening went unseen.
      generation += 1;
      accounts += 1;
    } catch {
      lost();
    }
  };
  void connect();

  const apply = (seen: DatabaseMarks): void => {
    if (seen.snapshot !== snapshot) {
      snapshot = seen.snapshot;
      generation += 1;
    }
    if (seen.accounts !== accountsMark) {
      accountsMark = seen.accounts;
      accounts += 1;
    }
  };
  const start = (): Promise<void> => {
    let marks: Promise<DatabaseMarks>;
    try {
      marks = opts.marks();
    } catch (e) {
      // A `marks` that throws at once fails its callers like one that rejects.
      marks = Promise.reject(e);
    }
    const read = marks.then(apply);
    const settled = (): void => {
      if (running === read) running = undefined;
    };
    read.then(settled, settled);
    running = read;
    return read;
  };
  /** The queued sync begins once the one before it settled, right or wrong. */
  const after = (): Promise<void> => {
    queued = undefined;
    return start();
  };

  return {
    generation() {
      if (!listening) generation += 1;
      return generation;
    },
    accountGeneration() {
      if (!listening) accounts += 1;
      return accounts;
    },
    touch(account = false) {
      generation += 1;
      if (account) accounts += 1;
    },
    sync() {
      if (!running) return start();
      // The read on its way may have begun before this call: wait for the next one.
      queued ??= running.then(after, after);
      return queued;
    },
    async close() {
      closed = true;
      listening = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * The server's current snapshot as text (`xmin:xmax:xip,...`: it changes whenever a
 * transaction's commit becomes visible) and the account tables' number, in one statement.
 */
export async function readMarks(pool: pg.Pool): Promise<DatabaseMarks> {
  const { rows } = await pool.query<DatabaseMarks>({
    name: "records_current_marks",
    text: "SELECT pg_current_snapshot()::text AS snapshot, (SELECT max(n) FROM account_generation)::text AS accounts",
  });
  return rows[0]!;
}
