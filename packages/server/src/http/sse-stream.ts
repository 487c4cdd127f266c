/**
 * @module http/sse-stream
 * A change feed as a Server-Sent Events byte stream with a hard cap on what it buffers. The
 * stream is pull-driven: the feed is read only while the buffer (`maxBufferBytes`) has room
 * for the next event, and @hono/node-server writes to the socket only as fast as it drains
 * (then waits for `drain`), so at most the buffer, one event larger than it, and the
 * socket's own write buffer (16 KiB) are held per stream. A client that leaves the buffer
 * full for `stallMs` is cut off at once (`cut`: the connection is dropped with what is
 * buffered, so nothing lingers after it); it resumes after the last event it received,
 * with `Last-Event-ID`. A comment line every `heartbeatMs` keeps proxies from closing an
 * idle stream and lets clients notice a dead one; when the feed moved past changes it
 * skipped (a type filter), the heartbeat also sends that position as an `id:` without
 * data, so a reconnect resumes there. `end(reason)` sends `event: end` with a JSON
 * `{reason, detail, last_event_id}` and closes (e.g. the credential was revoked).
 */
import type { ChangeEvent } from "@records-service/core";

/** Timers the stream uses; tests pass fakes. */
export interface SseTimers {
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
}

/** Options of `changeEventStream`. */
export interface SseStreamOptions {
  /** Position to announce first (sets the client's last event id before any event); undefined: none. */
  start?: number;
  heartbeatMs: number;
  /** How long a full buffer may wait for the client before the connection is cut. */
  stallMs: number;
  maxBufferBytes: number;
  timers?: SseTimers;
  /** Aborted when the stream ends (client gone, stalled, ended, shutdown): stop the feed with it. */
  done: AbortController;
  /** Aborting it (server shutdown) ends the stream. */
  shutdown?: AbortSignal;
  /** Where the feed is (sent at heartbeats when it moved past the last event sent). */
  position?: () => number;
  /** Called at every heartbeat (the route re-checks the credential there). */
  onHeartbeat?: () => void;
  /** Drops the connection at once (a stalled reader); default: the stream errors, which drops its buffer. */
  cut?: () => void;
}

/** Why a stream was ended by the server (sent as the `end` event's data). */
export interface StreamEnd {
  /** A stable word: `unauthorized`, `forbidden`, `not_found`, `feed_limit`. */
  reason: string;
  /** What happened, for people. */
  detail: string;
}

/** An event stream and the way to end it with a reason. */
export interface SseStream {
  body: ReadableStream<Uint8Array>;
  /** Sends `event: end` with `reason` and the last position, then closes (no-op once ended). */
  end(reason: StreamEnd): void;
}

/** Thrown by a feed's `beforeRead` to end the stream with `end` (see `SseStream.end`). */
export class StreamEndError extends Error {
  constructor(readonly end: StreamEnd) {
    super(end.detail);
  }
}

/** Real timers. */
const systemTimers: SseTimers = {
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref?.();
    return () => clearInterval(t);
  },
  wait(ms, signal) {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  },
};

/**
 * The SSE bytes of `events`: `id:` and `data:` per change. Ends (and aborts `opts.done`)
 * when the feed ends or fails, the client cancels, the buffer stalls, `end` is called or
 * `shutdown` aborts.
 *
 * @example
 * const { body } = changeEventStream(feed, { heartbeatMs: 15_000, stallMs: 30_000, maxBufferBytes: 256 * 1024, done });
 * return new Response(body, { headers: SSE_HEADERS });
 */
export function changeEventStream(events: AsyncIterable<ChangeEvent>, opts: SseStreamOptions): SseStream {
  const timers = opts.timers ?? systemTimers;
  const enc = new TextEncoder();
  const done = opts.done;
  const max = opts.maxBufferBytes;
  let wake: (() => void) | undefined;
  let stopBeat: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** The last id the client was sent (an event's, or a position). */
  let sent = opts.start ?? -1;

  const finish = () => {
    if (done.signal.aborted) return;
    done.abort();
    opts.shutdown?.removeEventListener("abort", finish);
    stopBeat?.();
    wake?.();
    try {
      controller.close();
    } catch {
      // Already cancelled by the client, or cut.
    }
  };
  /** Whether `bytes` more fit: within the cap, or alone in an empty buffer (one event larger than the cap). */
  const fits = (bytes: number) => {
    const room = controller.desiredSize ?? 0;
    return room >= bytes || room >= max;
  };
  /** Resolves true once `bytes` fit, false when the client stalled or the stream ended. */
  const waitToFit = async (bytes: number): Promise<boolean> => {
    while (!done.signal.aborted && !fits(bytes)) {
      const stalled = new AbortController();
      const pulled = new Promise<void>((resolve) => (wake = resolve));
      const timedOut = timers.wait(opts.stallMs, stalled.signal).then(() => !stalled.signal.aborted);
      const late = await Promise.race([pulled.then(() => false), timedOut]);
      stalled.abort();
      wake = undefined;
      if (late && !fits(bytes)) return false;
    }
    return !done.signal.aborted;
  };
  const cut = () => {
    if (done.signal.aborted) return;
    if (opts.cut) opts.cut();
    else controller.error(new Error("the client did not read the change feed; resume with Last-Event-ID"));
    finish();
  };
  const end = (reason: StreamEnd) => {
    if (done.signal.aborted) return;
    const data = JSON.stringify({ reason: reason.reason, detail: reason.detail, last_event_id: Math.max(sent, opts.position?.() ?? sent) });
    // Small and last: it may go over the cap by its own size.
    controller.enqueue(enc.encode(`event: end\ndata: ${data}\n\n`));
    finish();
  };
  const pump = async () => {
    try {
      if (opts.start !== undefined) controller.enqueue(enc.encode(`retry: 1000\nid: ${opts.start}\n\n`));
      for await (const e of events) {
        if (done.signal.aborted) break;
        const bytes = enc.encode(`id: ${e.id}\ndata: ${JSON.stringify(e.data)}\n\n`);
        if (!(await waitToFit(bytes.byteLength))) {
          if (!done.signal.aborted) cut();
          break;
        }
        controller.enqueue(bytes);
        sent = e.id;
      }
    } catch (e) {
      if (e instanceof StreamEndError) return end(e.end);
      // The feed failed (database gone, changes purged under a slow reader): end the
      // stream; the client reconnects and gets the reason as the status of its next request.
    }
    finish();
  };
  const beat = () => {
    if (done.signal.aborted) return;
    const at = opts.position?.();
    const block = at !== undefined && at > sent ? `: heartbeat\nid: ${at}\n\n` : ": heartbeat\n\n";
    const bytes = enc.encode(block);
    if (fits(bytes.byteLength)) {
      controller.enqueue(bytes);
      if (at !== undefined && at > sent) sent = at;
    }
    opts.onHeartbeat?.();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (opts.shutdown?.aborted) return finish();
        opts.shutdown?.addEventListener("abort", finish, { once: true });
        stopBeat = timers.every(opts.heartbeatMs, beat);
        void pump();
      },
      pull() {
        wake?.();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: max, size: (chunk) => chunk.byteLength },
  );
  return { body, end };
}

/** Response headers of an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};
