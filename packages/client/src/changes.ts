/**
 * @module changes
 * The change feed (`GET /api/v1/{flock}/changes/`, Server-Sent Events) as a subscription that
 * reconnects by itself from the last position it saw, so a change is delivered once and none
 * is missed across dropped connections and server restarts. Over `fetch` (EventSource cannot
 * send the Bearer key). The stream is read with a small reader of its own: the server's first
 * event names the starting position with an `id:` and no data, which SSE parsers (and
 * EventSource) do not hand to their callers, and a subscription without `since` needs it.
 */
import { RecordsApiError } from "./errors.js";
import type { Requester } from "./http.js";

/** What changed: the SSE event's `data`, as the server sends it. */
export interface ChangeData {
  /** The record's URI: `/{flock}/{resource_type}/{id}/`. */
  uri: string;
  resource_type: string;
  /** The record's state after the change. */
  state: "updated" | "deleted";
  version: number;
  changed_at: string;
  /** The data fields the change touched. */
  fields: string[];
}

/**
 * One committed change, in the engine's shape (`engine.changes()` yields the same
 * `{ id, data }`), so code that reads changes works on either. The fields of `data` are also
 * kept at the top level for code written against the client's first shape.
 */
export interface Change {
  /** The flock's change sequence: ordered, without gaps. */
  id: number;
  data: ChangeData;
  /** @deprecated Read `data.uri`. */
  uri: string;
  /** @deprecated Read `data.resource_type`. */
  resource_type: string;
  /** @deprecated Read `data.state`. */
  state: ChangeData["state"];
  /** @deprecated Read `data.version`. */
  version: number;
  /** @deprecated Read `data.changed_at`. */
  changed_at: string;
  /** @deprecated Read `data.fields`. */
  fields: string[];
}

/**
 * What `onError` gets when `onChange` threw (or rejected) for a change: the subscription has
 * moved past that change and goes on with the next; `change` is the one that failed
 * (`cause` what was thrown). To stop instead, call `sub.close()` from `onError`; to take the
 * change again later, resume with `since: error.change.id - 1`.
 */
export class ChangeHandlerError extends Error {
  override readonly name = "ChangeHandlerError";
  readonly change: Change;

  constructor(change: Change, cause: unknown) {
    super(`the change handler failed on change ${change.id} (${change.data.uri}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.change = change;
  }
}

/** Where a subscription starts and what it does on trouble. */
export interface SubscribeOptions {
  /** Deliver the changes after this id (default: from now on). */
  since?: number;
  /** Only these resource types. */
  types?: string[];
  /**
   * Called with a `ChangeHandlerError` when `onChange` throws for a change (the subscription
   * then goes on after that change; it is never delivered again), and with a
   * `RecordsApiError` that ends the subscription (401, 403, 404, or 410 when `since` is older
   * than the server keeps). Network errors and closed streams reconnect instead. Without
   * `onError`, a throwing handler ends the subscription and `done` rejects with the
   * `ChangeHandlerError`, so no failure passes unseen.
   */
  onError?(error: unknown): void;
  /** First wait before reconnecting, doubled up to 30 s while the server is unreachable (default 1000 ms). */
  reconnectMs?: number;
}

/** A running subscription. */
export interface Subscription {
  /** The last change id seen (or the starting position); resume from it with `since`. */
  readonly position: number | undefined;
  /** Stops it; `done` then resolves. */
  close(): void;
  /**
   * Resolves when the subscription has ended (closed, or an error ended it); rejects with the
   * `ChangeHandlerError` when `onChange` threw and no `onError` was given.
   */
  readonly done: Promise<void>;
}

/** The change feed of one flock. */
export interface ChangesApi {
  /**
   * Calls `onChange` for every change, in order, one at a time (a returned promise is
   * awaited before the next change). A handler that throws is reported to `onError` and the
   * subscription moves past that change.
   *
   * @example
   * const sub = client.changes("demo").subscribe((c) => console.log(c.id, c.data.uri, c.data.fields), {
   *   onError: (e) => console.error(e),
   * });
   * // later: sub.close();
   */
  subscribe(onChange: (change: Change) => void | Promise<void>, opts?: SubscribeOptions): Subscription;
}

/** The change feed API over `request` (which adds the key and the APPLICATION header). */
export function createChangesApi(request: Requester, flock: string, sleep: (ms: number) => Promise<void>): ChangesApi {
  return {
    subscribe(onChange, opts = {}) {
      const abort = new AbortController();
      let position = opts.since;
      const run = async (): Promise<void> => {
        let wait = opts.reconnectMs ?? 1000;
        while (!abort.signal.aborted) {
          try {
            const query: Record<string, string | number | undefined> = { since: position, type: opts.types?.join(",") };
            const res = await request<Response>("GET", `/api/v1/${encodeURIComponent(flock)}/changes/`, { query, raw: true, signal: abort.signal, accept: "text/event-stream" });
            for await (const event of _events(res)) {
              const change = event.data === undefined ? undefined : toChange(event.id, JSON.parse(event.data) as ChangeData);
              const failure = change && (await _handle(onChange, change));
              // Past the change whatever the handler did: a change is never delivered twice.
              position = event.id;
              wait = opts.reconnectMs ?? 1000;
              if (failure) {
                if (!opts.onError) throw failure;
                opts.onError(failure);
                if (abort.signal.aborted) break;
              }
            }
          } catch (e) {
            if (e instanceof ChangeHandlerError) throw e;
            if (abort.signal.aborted) break;
            if (e instanceof RecordsApiError && e.status !== 429 && e.status < 500) {
              opts.onError?.(e);
              break;
            }
          }
          if (abort.signal.aborted) break;
          await sleep(wait);
          wait = Math.min(wait * 2, 30_000);
        }
      };
      const done = run();
      return {
        get position() {
          return position;
        },
        close: () => abort.abort(),
        done,
      };
    },
  };
}

/**
 * A change in the shape `onChange` gets, from the SSE event's id and data.
 *
 * @example
 * toChange(7, { uri: "/demo/person/0123…/", resource_type: "person", state: "updated", version: 1, changed_at: "…", fields: [] }).data.uri;
 */
export function toChange(id: number, data: ChangeData): Change {
  return { id, data, ...data };
}

// --- internal ---

/** Runs the handler for one change; what it threw, wrapped, or undefined when it did not. */
async function _handle(onChange: (change: Change) => void | Promise<void>, change: Change): Promise<ChangeHandlerError | undefined> {
  try {
    await onChange(change);
    return undefined;
  } catch (e) {
    return new ChangeHandlerError(change, e);
  }
}

/** The events of an SSE body that carry an id (comments and heartbeats skipped). */
async function* _events(res: Response): AsyncGenerator<{ id: number; data: string | undefined }> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let id: number | undefined;
  let data: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at).replace(/\r$/, "");
        buffer = buffer.slice(at + 1);
        if (line === "") {
          if (id !== undefined) yield { id, data };
          id = undefined;
          data = undefined;
        } else if (line.startsWith("id:")) {
          const n = Number(line.slice(3).trim());
          if (Number.isSafeInteger(n)) id = n;
        } else if (line.startsWith("data:")) {
          const part = line.slice(5).replace(/^ /, "");
          data = data === undefined ? part : `${data}\n${part}`;
        }
      }
    }
  } finally {
    // Stopped early (closed, or the consumer threw): let the server's stream go.
    await reader.cancel().catch(() => {});
  }
}
