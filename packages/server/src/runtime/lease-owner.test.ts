import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { createFakeClock, createMemoryStorage, withLease } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { leaseOwnerGone, processLeaseOwner } from "./workers.js";

describe("lease owners of this machine", () => {
  it("name host and pid; a finished process's lease is gone, a running one's or another host's is not", () => {
    const own = processLeaseOwner();
    expect(own).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{24}$`));
    const ended = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    expect(leaseOwnerGone(`${hostname()}:${ended}:abc`)).toBe(true);
    expect(leaseOwnerGone(own)).toBe(false);
    expect(leaseOwnerGone(`${hostname()}:${process.ppid}:abc`)).toBe(false);
    expect(leaseOwnerGone(`elsewhere.example:${ended}:abc`)).toBe(false);
    expect(leaseOwnerGone("no-pid-here")).toBe(false);
  });

  it("a restarted server takes over its killed predecessor's lease at once", async () => {
    const storage = createMemoryStorage();
    const clock = createFakeClock();
    const now = clock.now().getTime();
    const ended = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    await storage.updateLimit("lease:scheduler", now, () => ({ value: `${hostname()}:${ended}:abc`, expiresAt: now + 60_000 }));
    const opts = { ttlMs: 60_000, clock, owner: processLeaseOwner() };
    expect(await withLease(storage, "scheduler", opts, async () => 1)).toEqual({ acquired: false });
    expect(await withLease(storage, "scheduler", { ...opts, isGone: leaseOwnerGone }, async () => 1)).toEqual({ acquired: true, value: 1 });
  });
});
