import { afterEach, describe, expect, it, vi } from "vitest";
import { createPollLoop } from "./poll-loop.js";

/** A pass that stays open until released, so overlap can be observed. */
function gate() {
  let release = () => {};
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe("createPollLoop", () => {
  afterEach(() => void vi.useRealTimers());

  it("never overlaps passes; a kick during a pass gives exactly one more pass", async () => {
    const gates = [gate(), gate()];
    let calls = 0;
    let active = 0;
    let maxActive = 0;
    const loop = createPollLoop({
      pollMs: 60_000,
      run: async () => {
        const g = gates[calls++];
        active++;
        maxActive = Math.max(maxActive, active);
        await g?.done;
        active--;
      },
      onError: () => {},
    });
    loop.kick();
    loop.kick();
    loop.kick();
    expect(calls).toBe(1);
    gates[0]!.release();
    await vi.waitFor(() => expect(calls).toBe(2));
    gates[1]!.release();
    await loop.halt();
    expect(calls).toBe(2);
    expect(maxActive).toBe(1);
  });

  it("polls pollMs after a pass ends, reports errors and goes on, and stops when halted", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    const loop = createPollLoop({
      pollMs: 1000,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error("boom");
      },
      onError: (e) => errors.push(e),
    });
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(errors).toEqual([new Error("boom")]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(loop.halt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(5000);
    loop.kick();
    expect(calls).toBe(2);
  });
});

describe("createPollLoop settle", () => {
  it("runs a pass and resolves only when no pass is running, including one asked for meanwhile", async () => {
    const gates = [gate(), gate()];
    let calls = 0;
    const loop = createPollLoop({ pollMs: 60_000, run: async () => void (await gates[calls++]?.done), onError: () => {} });
    let settled = false;
    const settling = loop.settle().then(() => (settled = true));
    await Promise.resolve();
    loop.kick(); // asked for during the first pass
    gates[0]!.release();
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    expect(calls).toBe(2);
    gates[1]!.release();
    await settling;
    expect(calls).toBe(2);
    loop.halt();
  });
});
