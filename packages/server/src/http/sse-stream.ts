/**
 * @module http/sse-stream
 * A change feed as a Server-Sent Events byte stream with a bounded buffer. The stream is
 * pull-driven: the feed is read only while the buffer (`maxBufferBytes`) has room, and
 * @hono/node-server writes to the socket only as fast as it drains. A client that leaves
 * the buffer full for `stallMs` is cut off (it resumes with `Last-Event-ID`), so a slow or
 * stuck reader never holds more than the buffer. A comment line every `heartbeatMs` keeps
 * proxies from closing an idle stream and lets clients notice a dead one.
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
  /** How long a full buffer may wait for the client before the stream is closed. */
  stallMs: number;
  maxBufferBytes: number;
  timers?: SseTimers;
  /** Aborted when the stream ends (client gone, stalled, shutdown): stop the feed with it. */
  done: AbortController;
  /** Aborting it (server shutdown) ends the stream. */
  shutdown?: AbortSignal;
}

/** Defaults: a heartbeat every 15 s (the issue's), 30 s of grace for a full buffer of 256 KiB. */
export const SSE_DEFAULTS = { heartbeatMs: 15_000, stallMs: 30_000, maxBufferBytes: 256 * 1024 } as const;

/** Real timers. */
export const systemTimers: SseTimers = {
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
 * when the feed ends or fails, the client cancels, the buffer stalls or `shutdown` aborts.
 *
 * @example
 * return new Response(changeEventStream(feed, { ...SSE_DEFAULTS, done }), { headers: SSE_HEADERS });
 */
export function changeEventStream(events: AsyncIterable<ChangeEvent>, opts: SseStreamOptions): ReadableStream<Uint8Array> {
  const timers = opts.timers ?? systemTimers;
  const enc = new TextEncoder();
  const done = opts.done;
  let wake: (() => void) | undefined;
  let stopBeat: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const finish = () => {
    if (done.signal.aborted) return;
    done.abort();
    opts.shutdown?.removeEventListener("abort", finish);
    stopBeat?.();
    wake?.();
    try {
      controller.close();
    } catch {
      // Already cancelled by the client.
    }
  };
  const room = () => (controller.desiredSize ?? 0) > 0;
  /** Resolves true once the client made room, false when it stalled or the stream ended. */
  const waitForRoom = async (): Promise<boolean> => {
    if (room()) return true;
    const stalled = new AbortController();
    const pulled = new Promise<void>((resolve) => (wake = resolve));
    await Promise.race([pulled, timers.wait(opts.stallMs, stalled.signal)]);
    stalled.abort();
    wake = undefined;
    return !done.signal.aborted && room();
  };
  const pump = async () => {
    try {
      if (opts.start !== undefined) controller.enqueue(enc.encode(`retry: 1000\nid: ${opts.start}\n\n`));
      for await (const e of events) {
        if (done.signal.aborted) break;
        controller.enqueue(enc.encode(`id: ${e.id}\ndata: ${JSON.stringify(e.data)}\n\n`));
        if (!(await waitForRoom())) break;
      }
    } catch {
      // The feed failed (database gone, changes purged under a slow reader): end the
      // stream; the client reconnects and gets the reason as the status of its next request.
    }
    finish();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (opts.shutdown?.aborted) return finish();
        opts.shutdown?.addEventListener("abort", finish, { once: true });
        stopBeat = timers.every(opts.heartbeatMs, () => {
          if (!done.signal.aborted && room()) controller.enqueue(enc.encode(": heartbeat\n\n"));
        });
        void pump();
      },
      pull() {
        wake?.();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: opts.maxBufferBytes, size: (chunk) => chunk.byteLength },
  );
}

/** Response headers of an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};
