import { describe, expect, it } from "vitest";
import { createClockAdvancer, nextStop, type AdvanceDeps } from "./advance.js";
import { createManualClock } from "./manual-clock.js";

const at = (s: string) => new Date(s);

describe("nextStop", () => {
  it.each([
    { name: "the next midnight", now: "2026-01-01T10:00:00Z", target: "2026-01-05T00:00:00Z", job: undefined, expected: "2026-01-02T00:00:00Z" },
    { name: "the target before midnight", now: "2026-01-01T10:00:00Z", target: "2026-01-01T12:00:00Z", job: undefined, expected: "2026-01-01T12:00:00Z" },
    { name: "a retry falling due first", now: "2026-01-01T10:00:00Z", target: "2026-01-05T00:00:00Z", job: "2026-01-01T10:01:00Z", expected: "2026-01-01T10:01:00Z" },
    { name: "a retry already due does not hold the clock", now: "2026-01-01T10:00:00Z", target: "2026-01-05T00:00:00Z", job: "2026-01-01T09:00:00Z", expected: "2026-01-02T00:00:00Z" },
    { name: "from midnight, the next one", now: "2026-01-02T00:00:00Z", target: "2026-01-09T00:00:00Z", job: undefined, expected: "2026-01-03T00:00:00Z" },
  ])("stops at $name", ({ now, target, job, expected }) => {
    expect(nextStop(at(now), at(target), job ? at(job) : undefined)).toEqual(at(expected));
  });
});

describe("createClockAdvancer", () => {
  function deps(jobs: Date[] = []) {
    const clock = createManualClock(at("2026-01-01T10:00:00Z"));
    const log: string[] = [];
    const d: AdvanceDeps = {
      clock,
      runScheduler: async (now): Promise<Record<string, number>> => {
        log.push(`scheduler ${now.toISOString()}`);
        return now.getUTCDate() === 3 && now.getUTCHours() === 0 ? { expiring_2wk: 1 } : {};
      },
      settleOutbox: async () => {
        log.push(`outbox ${clock.now().toISOString()}`);
        // A job due now is done once the outbox has run.
        while (jobs.length && jobs[0]!.getTime() <= clock.now().getTime()) jobs.shift();
      },
      nextJobDue: async () => jobs[0],
    };
    return { clock, log, d };
  }

  it("stops at each midnight and each retry in time order, then at the target, counting what fired", async () => {
    const { clock, log, d } = deps([at("2026-01-02T06:00:00Z")]);
    const report = await createClockAdvancer(d).advance(at("2026-01-03T12:00:00Z"));
    expect(report).toEqual({ now: at("2026-01-03T12:00:00Z"), fired: { expiring_2wk: 1 } });
    expect(clock.now()).toEqual(at("2026-01-03T12:00:00Z"));
    expect(log.filter((l) => l.startsWith("scheduler")).map((l) => l.slice(10))).toEqual([
      "2026-01-01T10:00:00.000Z",
      "2026-01-02T00:00:00.000Z",
      "2026-01-02T06:00:00.000Z",
      "2026-01-03T00:00:00.000Z",
      "2026-01-03T12:00:00.000Z",
    ]);
    // The outbox runs after the scheduler at every stop.
    expect(log.filter((_, i) => i % 2 === 1).every((l) => l.startsWith("outbox"))).toBe(true);
  });

  it("refuses to move back or stand still, changing nothing", async () => {
    const { clock, log, d } = deps();
    const advancer = createClockAdvancer(d);
    await expect(advancer.advance(at("2026-01-01T10:00:00Z"))).rejects.toThrow(RangeError);
    await expect(advancer.advance(at("2025-12-31T00:00:00Z"))).rejects.toThrow(/only moves forward/);
    expect(clock.now()).toEqual(at("2026-01-01T10:00:00Z"));
    expect(log).toEqual([]);
  });

  it("runs two advances one after the other", async () => {
    const { clock, d } = deps();
    const advancer = createClockAdvancer(d);
    const [a, b] = await Promise.all([advancer.advance(at("2026-01-01T11:00:00Z")), advancer.advance(at("2026-01-01T12:00:00Z"))]);
    expect(a.now).toEqual(at("2026-01-01T11:00:00Z"));
    expect(b.now).toEqual(at("2026-01-01T12:00:00Z"));
    expect(clock.now()).toEqual(at("2026-01-01T12:00:00Z"));
  });
});
