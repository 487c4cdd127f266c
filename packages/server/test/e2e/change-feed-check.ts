/**
 * @module test/e2e/change-feed-check
 * The assertions on a change feed run: exactly the records written, each once, ids rising,
 * each writer's records in the order its writes were answered, and the reconnects happened.
 */
import type { ExpectStatic } from "vitest";
import type { FeedRunResult } from "./change-feed-run.js";

/** Checks `run` (see the module comment). */
export function checkFeedRun(run: FeedRunResult, expect: ExpectStatic): void {
  const all = run.written.flat();
  expect(all).toHaveLength(1000);
  expect(run.received).toHaveLength(1000);
  const uris = run.received.map((e) => String(e.data.uri));
  expect(new Set(uris).size).toBe(1000);
  expect(new Set(uris)).toEqual(new Set(all));
  const ids = run.received.map((e) => e.id);
  expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  const position = new Map(uris.map((u, i) => [u, i]));
  for (const mine of run.written) {
    const at = mine.map((u) => position.get(u)!);
    expect(at.every((p, i) => i === 0 || p > at[i - 1]!)).toBe(true);
  }
  expect(run.received.every((e) => e.data.resource_type === "journal" && e.data.state === "updated" && e.data.version === 1)).toBe(true);
  // Two deliberate disconnects and the restart: at least four connections.
  expect(run.connections).toBeGreaterThanOrEqual(4);
}
