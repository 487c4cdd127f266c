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

/** One committed change. */
export interface Change {
  /** The flock's change sequence: ordered, without gaps. */
  id: number;
  uri: string;
  resource_type: string;
  state: string;
  version: number;
  changed_at: string;
  /** The data fields the change touched. */
  fields: string[];
}

/** Where a subscription starts and what it does on trouble. */
export interface SubscribeOptions {
  /** Deliver the changes after this id (default: from now on). */
  since?: number;
  /** Only these resource types. */
  types?: string[];
  /**
   * Called with an error that ends the subscription (401, 403, 404, or 410 when `since` is
   * older than the server keeps); network errors and closed streams reconnect instead.
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
  /** Resolves when the subscription has ended (closed, or an error ended it). */
  readonly done: Promise<void>;
}

/** The change feed of one flock. */
export interface ChangesApi {
  /**
   * Calls `onChange` for every change, in order, one at a time (a returned promise is
   * awaited before the next change).
   *
   * @example
   * const sub = client.changes("demo").subscribe((c) => console.log(c.id, c.uri, c.fields));
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
              if (event.data !== undefined) await onChange({ ...(JSON.parse(event.data) as Omit<Change, "id">), id: event.id });
              position = event.id;
              wait = opts.reconnectMs ?? 1000;
            }
          } catch (e) {
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

// --- internal ---

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
