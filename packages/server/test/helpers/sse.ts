/**
 * @module test/helpers/sse
 * Reads a Server-Sent Events body in tests: events (id and JSON data), comment lines
 * (heartbeats), id-only blocks (the position a stream announces first, or reaches past
 * skipped changes) and `end` events. Only what the change feed writes is understood:
 * `id:`, `event:`, `data:` (one line), `retry:`, `:` comments.
 */

/** One change event as read. */
export interface SseEvent {
  id: number;
  data: Record<string, unknown>;
}

/** A reader of one event stream. */
export interface SseReader {
  /** Waits for the next `n` events (fewer if the stream ends). */
  events(n: number): Promise<SseEvent[]>;
  /** Comments seen so far (e.g. "heartbeat"). */
  comments: string[];
  /** Ids of blocks without data seen so far (position announcements). */
  positions: number[];
  /** Data of the `end` events seen (why the server ended the stream). */
  ends: Record<string, unknown>[];
  /** True once the server ended the stream. */
  ended(): boolean;
  /** Reads until `check()` holds or the stream ends; whether it holds. */
  until(check: () => boolean): Promise<boolean>;
  /** Reads until the stream ends; returns the events read meanwhile. */
  drain(): Promise<SseEvent[]>;
  cancel(): Promise<void>;
}

/** Starts reading `body`. */
export function readSse(body: ReadableStream<Uint8Array>): SseReader {
  const reader = body.getReader();
  const dec = new TextDecoder();
  const queue: SseEvent[] = [];
  const comments: string[] = [];
  const positions: number[] = [];
  const ends: Record<string, unknown>[] = [];
  let ended = false;
  let pending = "";
  const block = (text: string) => {
    let id: number | undefined;
    let data: string | undefined;
    let event: string | undefined;
    for (const line of text.split("\n")) {
      if (line.startsWith(":")) comments.push(line.slice(1).trim());
      else if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (event === "end" && data !== undefined) ends.push(JSON.parse(data) as Record<string, unknown>);
    else if (data !== undefined) queue.push({ id: id ?? NaN, data: JSON.parse(data) as Record<string, unknown> });
    else if (id !== undefined) positions.push(id);
  };
  const step = async (): Promise<boolean> => {
    const r = await reader.read();
    if (r.done) {
      ended = true;
      return false;
    }
    pending += dec.decode(r.value, { stream: true });
    const blocks = pending.split("\n\n");
    pending = blocks.pop()!;
    blocks.forEach(block);
    return true;
  };
  return {
    comments,
    positions,
    ends,
    ended: () => ended,
    async events(n) {
      while (queue.length < n && (await step()));
      return queue.splice(0, n);
    },
    async until(check) {
      while (!check() && (await step()));
      return check();
    },
    async drain() {
      while (await step());
      return queue.splice(0);
    },
    cancel: () => reader.cancel(),
  };
}
