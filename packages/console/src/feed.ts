/**
 * @module feed
 * Follows a flock's change feed. EventSource cannot send an Authorization header, so the
 * stream is read with fetch and parsed by eventsource-parser (the parser of the common
 * EventSource polyfills); after a drop it reconnects with `Last-Event-ID`, so no change is
 * missed or seen twice.
 */
import { createParser } from "eventsource-parser";
import { session } from "./session.js";

/** One change as the feed sends it. */
export interface Change {
  id: number;
  uri: string;
  resource_type: string;
  state: string;
  version: number;
  changed_at: string;
  fields: string[];
}

/**
 * Calls `onChange` for every change committed in `flock` from now on until the returned
 * function is called. `onStatus` hears "live" or "reconnecting".
 */
export function followChanges(flock: string, onChange: (c: Change) => void, onStatus: (s: "live" | "reconnecting") => void = () => {}): () => void {
  const stop = new AbortController();
  let last: string | undefined;
  const run = async () => {
    while (!stop.signal.aborted) {
      try {
        const headers: Record<string, string> = { accept: "text/event-stream", authorization: `Bearer ${session.key() ?? ""}` };
        if (last !== undefined) headers["last-event-id"] = last;
        const res = await fetch(`/api/v1/${encodeURIComponent(flock)}/changes/`, { headers, signal: stop.signal });
        if (res.status === 410 || res.status === 400) last = undefined; // too far behind: start at the present
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        onStatus("live");
        const parser = createParser({
          onEvent(e) {
            // The server's `end` event (credential lost) is not a change; the reconnect that follows gets the status.
            if (e.event === "end") return;
            if (e.id !== undefined) last = e.id;
            if (e.data) onChange({ id: Number(e.id), ...(JSON.parse(e.data) as Omit<Change, "id">) });
          },
        });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // An id-only block (the position the server announces first) dispatches no event.
          const announced = /(?:^|\n)id: (\d+)\n\n/.exec(value);
          if (announced && !value.includes("data:")) last = announced[1];
          parser.feed(value);
        }
      } catch {
        if (stop.signal.aborted) return;
      }
      onStatus("reconnecting");
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void run();
  return () => stop.abort();
}
