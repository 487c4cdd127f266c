/**
 * @module change-watch
 * One number that moves whenever the database may have changed, for caches of things read
 * from it (the account lookups, the server's serialized responses): `Storage.changeGeneration`.
 * This process's writes move it at once; other processes' commits when their notification
 * arrives (a trigger on every table notifies channel `records_changes` at commit: within
 * milliseconds). The watch listens on a connection of its own; while that connection is
 * not listening (opening, lost, reconnecting) every call returns a new number, so nothing
 * is cached against a database whose changes could go unseen.
 */
import pg from "pg";

/** The database's change generation (see the module comment). */
export interface ChangeWatch {
  generation(): number;
  /** Marks a change made by this process (call when a write starts and when it ends). */
  touch(): void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** The notification channel the migrations' triggers notify. */
export const CHANGE_CHANNEL = "records_changes";

/**
 * Starts listening on a connection made with `config` (the pool's settings).
 *
 * @example
 * const watch = createChangeWatch(pool.options);
 * const g = watch.generation(); // ... later: watch.generation() !== g once anything was written
 */
export function createChangeWatch(config: pg.ClientConfig, opts: { retryMs?: number } = {}): ChangeWatch {
  const retryMs = opts.retryMs ?? 1000;
  let generation = 0;
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
    c.on("notification", () => {
      generation += 1;
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (client !== c) return;
      listening = true;
      generation += 1; // changes made while not listening went unseen
    } catch {
      lost();
    }
  };
  void connect();

  return {
    generation() {
      if (!listening) generation += 1;
      return generation;
    },
    touch() {
      generation += 1;
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
