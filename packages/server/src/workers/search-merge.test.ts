/**
 * The search worker on one SQLite file shared by two processes' Storages: one of them holds
 * the `search` lease and merges the queue soon after the writes; when it stops, the other
 * takes the lease over and merges what is written next.
 */
import { listLeases } from "@records-service/core";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { openTwoProcesses } from "./leased-test-helpers.js";
import { createSearchMergeWorker } from "./search-merge.js";

describe("search worker", () => {
  it("merges the queue while holding the lease; another process takes over when it stops", async () => {
    const { path, a, b, ctx, out, close } = await openTwoProcesses("search-merge");
    const ca = ctx(a);
    const wa = createSearchMergeWorker(ca, { intervalMs: 20, batch: 7 });
    const wb = createSearchMergeWorker(ctx(b), { intervalMs: 20, batch: 7 });
    await wa.start();
    await vi.waitFor(async () => expect((await listLeases(a, Date.now())).map((l) => l.name)).toEqual(["search"]), { timeout: 10_000, interval: 10 });
    await wb.start();

    for (let i = 0; i < 30; i++) await ca.engine.create("demo", "person", { first_name: `Ada${i}`, last_name: "Lovelace" });
    await vi.waitFor(() => expect(_counts(path)).toEqual({ pending: 0, indexed: 30 }), { timeout: 10_000, interval: 10 });
    // One holder, though both ran passes meanwhile.
    expect((await listLeases(b, Date.now())).map((l) => l.name)).toEqual(["search"]);

    await wa.stop();
    for (let i = 0; i < 10; i++) await ca.engine.create("demo", "person", { first_name: `Grace${i}`, last_name: "Hopper" });
    await vi.waitFor(() => expect(_counts(path)).toEqual({ pending: 0, indexed: 40 }), { timeout: 10_000, interval: 10 });
    await wb.stop();
    expect(await listLeases(a, Date.now())).toEqual([]);
    expect(out).toEqual([]);
    await close();
  });
});

// --- internal ---

/** Rows in the search queue and in the index, read by a third connection. */
function _counts(path: string): { pending: number; indexed: number } {
  const client = new Database(path, { readonly: true });
  try {
    const n = (sql: string) => (client.prepare(sql).get() as { n: number }).n;
    return { pending: n("SELECT count(*) AS n FROM search_pending"), indexed: n("SELECT count(*) AS n FROM record_search") };
  } finally {
    client.close();
  }
}
