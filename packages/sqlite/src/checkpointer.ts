/**
 * @module checkpointer
 * Copies the write-ahead log back into the database file on a worker thread, with its own
 * connection, so that no request pays for it. Left to SQLite, the commit that crosses
 * `wal_autocheckpoint` runs the checkpoint inside the request: about 130 ms (fsync
 * included) for 40 MB of log, with every other request waiting. A passive
 * checkpoint never blocks the connection that writes; once it has copied every frame, the
 * next write starts the log over, so the commit-time checkpoint is only a fallback.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * How often the worker looks for frames to copy. Often enough that the log stays far below
 * the commit-time fallback (`WAL_AUTOCHECKPOINT_PAGES`) while creates write ~150 pages each;
 * a tick with nothing to copy costs a few microseconds.
 */
export const CHECKPOINT_INTERVAL_MS = 50;

/** A running checkpointer. */
export interface Checkpointer {
  /** Stops the worker (its connection closes); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing the WAL database at `path` (a file opened in WAL mode) every
 * `intervalMs`. The worker never keeps the process alive.
 *
 * @example
 * const checkpointer = startCheckpointer("./data/records.db");
 * await checkpointer.stop();
 */
export function startCheckpointer(path: string, intervalMs: number = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(_WORKER, { eval: true, workerData: { driver, path, intervalMs } });
  worker.unref();
  // A failing checkpointer (e.g. the file was removed) leaves the commit-time fallback.
  worker.on("error", () => undefined);
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let stopping = false;
  return {
    stop: () => {
      if (!stopping) {
        stopping = true;
        // Held until it exits, so that a caller awaiting the stop keeps the process alive.
        worker.ref();
        worker.postMessage("stop");
      }
      return exited;
    },
  };
}

// --- internal ---

/** The worker's code (CommonJS, evaluated): one connection, a passive checkpoint per tick. */
const _WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
const tick = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // busy or gone: the next tick, or the commit-time fallback, catches up
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(tick);
  db.close();
  parentPort.close();
});
`;
