import { describe, expect, it } from "vitest";
import { isRecordsError } from "../errors.js";
import { BUSY_RETRY_BOUND_MS, busyRetryCount, retryWhileBusy } from "./busy-retry.js";

const busy = Object.assign(new Error("database is locked"), { code: "BUSY" });
const isBusy = (e: unknown) => (e as { code?: unknown }).code === "BUSY";

/** A fake clock that moves only when the retry loop sleeps. */
function fakeTime() {
  let t = 0;
  const pauses: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (pauses.push(ms), (t += ms)), pauses };
}

describe("retryWhileBusy", () => {
  it("retries busy failures until the work succeeds", async () => {
    const time = fakeTime();
    let calls = 0;
    const before = busyRetryCount();
    const out = await retryWhileBusy(() => {
      calls += 1;
      if (calls < 5) throw busy;
      return "done";
    }, { isBusy, ...time });
    expect(out).toBe("done");
    expect(calls).toBe(5);
    expect(time.pauses).toHaveLength(4);
    // Counted for metrics (other tests in this process may add theirs meanwhile).
    expect(busyRetryCount() - before).toBeGreaterThanOrEqual(4);
    expect(time.pauses.every((p) => p > 0 && p <= 100)).toBe(true);
  });

  it("counts a first run as a retry when the caller's own attempt met the busy database", async () => {
    const time = fakeTime();
    const before = busyRetryCount();
    expect(await retryWhileBusy(() => "done", { isBusy, ...time, afterBusy: true })).toBe("done");
    expect(busyRetryCount() - before).toBeGreaterThanOrEqual(1);
  });

  it("passes any other error through at once", async () => {
    const time = fakeTime();
    await expect(retryWhileBusy(() => Promise.reject(new Error("bug")), { isBusy, ...time })).rejects.toThrow("bug");
    expect(time.pauses).toEqual([]);
  });

  it("answers 503 'database busy' once the bound has passed, never the driver's error", async () => {
    const time = fakeTime();
    const err = await retryWhileBusy(() => Promise.reject(busy), { isBusy, ...time }).catch((e: unknown) => e);
    expect(isRecordsError(err) && [err.status, err.message]).toEqual([503, "database busy"]);
    expect(time.now()).toBe(BUSY_RETRY_BOUND_MS);
  });
});
