/**
 * @module feed
 * Follows a flock's change feed. EventSource cannot send an Authorization header, so the
 * stream is read with fetch and parsed by eventsource-parser (the parser of the common
 * EventSource polyfills); after a drop it reconnects with `Last-Event-ID`, so no change is
 * missed or seen twice.
 */
import { createParser } from "eventsource-parser";
import { CONSOLE_APPLICATION } from "./api.js";
import { session } from "./session.js";
import { encodePart } from "./text.js";

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
        const headers: Record<string, string> = { accept: "text/event-stream", application: CONSOLE_APPLICATION, authorization: `Bearer ${session.key() ?? ""}` };
        if (last !== undefined) headers["last-event-id"] = last;
        const res = await fetch(`/api/v1/${encodePart(flock)}/changes/`, { headers, signal: stop.signal });
        if (res.status === 410 || res.status === 400) last = undefined; // too far behind: start at the present
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        onStatus("live");
        const parser = createParser({
          onEvent(e) {
            // The server's `end` event (credential lost) is not a change; the reconnect that follows gets the status.
            if (e.event === "end") return;
            if (e.id !== undefined) last = e.id;
            const change = e.data ? changeOf(e.id, e.data) : undefined;
            if (change) onChange(change);
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

/**
 * The change an event's `data` describes, or undefined when it is not one (not JSON, or
 * without a URI and type): such an event is skipped, and the stream goes on.
 *
 * @example
 * changeOf("7", '{"uri":"/demo/person/6b0.../","resource_type":"person"}')?.id // 7
 */
export function changeOf(id: string | undefined, data: string): Change | undefined {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const c = v as Partial<Record<keyof Change, unknown>>;
  if (typeof c.uri !== "string" || typeof c.resource_type !== "string") return undefined;
  return {
    id: Number(id),
    uri: c.uri,
    resource_type: c.resource_type,
    state: String(c.state ?? ""),
    version: Number(c.version),
    changed_at: String(c.changed_at ?? ""),
    fields: Array.isArray(c.fields) ? c.fields.map(String) : [],
  };
}
