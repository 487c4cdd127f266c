/**
 * The leased drain worker's pass: a backlog is drained in calls of at most `batch`, with a
 * turn of the event loop between two calls, so I/O that arrived meanwhile (a request) is
 * served between batches rather than after the whole backlog.
 */
import { describe, expect, it, vi } from "vitest";
import { createLeasedDrainWorker } from "./leased-drain.js";
import { openTwoProcesses } from "./leased-test-helpers.js";

describe("leased drain worker", () => {
  it("gives the event loop a turn between two drain calls", async () => {
    const { a, ctx, out, close } = await openTwoProcesses("leased-drain");
    const seen: string[] = [];
    let left = 3 * 5 + 2; // three full batches of 5, then 2
    const worker = createLeasedDrainWorker(ctx(a), {
      name: "test",
      lease: "test",
      intervalMs: 60_000,
      batch: 5,
      drain: async (batch) => {
        seen.push("drain");
        // What a request arriving during a synchronous batch waits for: the next turn.
        setImmediate(() => seen.push("turn"));
        const moved = Math.min(batch, left);
        left -= moved;
        return moved;
      },
    });
    await worker.start();
    await vi.waitFor(() => expect(left).toBe(0), { timeout: 10_000, interval: 5 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["drain", "turn", "drain", "turn", "drain", "turn", "drain", "turn"]);
    await worker.stop();
    expect(out).toEqual([]);
    await close();
  });
});
