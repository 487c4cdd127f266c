/**
 * @module live
 * Hands the flock's changes to the views that are open. Each change reaches every
 * listener (React-style state would fold a burst of changes into the last one, and a
 * record's change is often followed at once by its data event's).
 */
import { useEffect, useRef } from "preact/hooks";
import type { Change } from "./feed.js";

/** The feed as the views see it. */
export interface Live {
  status: "live" | "reconnecting" | "off";
  /** Calls `listener` for every change from now on; returns the unsubscribe function. */
  subscribe(listener: (c: Change) => void): () => void;
}

/** A hub for one feed: `publish` from the feed, `subscribe` from the views. */
export function createHub(): { publish(c: Change): void; subscribe(l: (c: Change) => void): () => void } {
  const listeners = new Set<(c: Change) => void>();
  return {
    // One view's failure must not stop the others, nor the feed that publishes.
    publish: (c) =>
      listeners.forEach((l) => {
        try {
          l(c);
        } catch (e) {
          console.error(e);
        }
      }),
    subscribe(l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

/** Calls `onChange` (the latest one given) for every change while the view is open. */
export function useChanges(live: Live, onChange: (c: Change) => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => live.subscribe((c) => latest.current(c)), [live]);
}
