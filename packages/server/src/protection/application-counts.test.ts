import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFakeClock, createMemoryStorage, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { describe, expect, it } from "vitest";
import { createApplicationCounts, OTHER_APPLICATIONS } from "./application-counts.js";

describe("createApplicationCounts", () => {
  it("counts per label and unattributed, most requests first, ties by name", async () => {
    const clock = createFakeClock("2026-01-15T10:00:00Z");
    const counts = createApplicationCounts({ storage: createMemoryStorage(), clock });
    counts.record("b/app/1");
    clock.advance(1500);
    counts.record("a/app/1");
    counts.record(null);
    counts.record("c/app/1");
    counts.record("c/app/1");
    expect(await counts.snapshot()).toEqual({
      since: "2026-01-15T10:00:00.000000",
      total: 5,
      unattributed: 1,
      applications: [
        { application: "c/app/1", requests: 2, last_seen: "2026-01-15T10:00:01.500000" },
        { application: "a/app/1", requests: 1, last_seen: "2026-01-15T10:00:01.500000" },
        { application: "b/app/1", requests: 1, last_seen: "2026-01-15T10:00:00.000000" },
      ],
    });
    await counts.close();
  });

  it("counts labels beyond the cap together, so memory stays bounded", async () => {
    const counts = createApplicationCounts({ storage: createMemoryStorage(), clock: createFakeClock(), maxLabels: 2 });
    for (const label of ["x/1/1", "y/1/1", "z/1/1", "w/1/1", "x/1/1"]) counts.record(label);
    await counts.flush();
    counts.record("v/1/1"); // a third label in a later merge: (other) too
    const apps = (await counts.snapshot()).applications.map((a) => [a.application, a.requests]);
    expect(apps).toEqual([
      [OTHER_APPLICATIONS, 3],
      ["x/1/1", 2],
      ["y/1/1", 1],
    ]);
    await counts.close();
  });

  it("keeps counts whose merge failed for the next one", async () => {
    const storage = createMemoryStorage();
    let down = true;
    const flaky: Storage = { ...storage, updateLimit: (...a) => (down ? Promise.reject(new Error("down")) : storage.updateLimit(...a)) };
    const counts = createApplicationCounts({ storage: flaky, clock: createFakeClock() });
    counts.record("a/1/1");
    await expect(counts.flush()).rejects.toThrow("down");
    counts.record("a/1/1");
    down = false;
    expect((await counts.snapshot()).applications).toMatchObject([{ application: "a/1/1", requests: 2 }]);
    await counts.close();
  });

  it("are the service's: three processes on one SQLite file see one another's counts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-app-counts-"));
    const path = join(dir, "records.db");
    const storages = [0, 1, 2].map(() => createSqliteStorage({ path }));
    const clock = createFakeClock("2026-01-15T10:00:00Z");
    const counts = storages.map((storage) => createApplicationCounts({ storage, clock }));
    try {
      for (let i = 0; i < 30; i++) counts[i % 3]!.record(i % 2 ? "Acme/Sync/1" : null);
      await counts[1]!.flush();
      await counts[2]!.flush();
      // The process asked merges its own pending counts; the others merged theirs before.
      const stats = await counts[0]!.snapshot();
      expect(stats).toMatchObject({ total: 30, unattributed: 15, applications: [{ application: "Acme/Sync/1", requests: 15 }] });
      expect(await counts[2]!.snapshot()).toEqual(stats);
    } finally {
      for (const c of counts) await c.close();
      for (const s of storages) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
