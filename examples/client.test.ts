import { describe, expect, it } from "vitest";
import { main } from "./client.js";

describe("examples/client", () => {
  it("logs in, lists every page and moves the manual clock until expiring_2wk fires", async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line));
    expect(result.flocks).toEqual(["demo"]);
    expect(result.found.sort()).toEqual(["Ada Lovelace", "Jane Lowe"]);
    expect(result.advanced).toEqual({ now: "2026-01-15T00:00:00.000000", fired: { expiring_2wk: 1 } });
    expect(result.expiringEvents).toBe(1);
    expect(lines).toHaveLength(5);
  });
});
