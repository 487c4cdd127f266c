import { describe, expect, it } from "vitest";
import { isFlagSet } from "./flags.js";

describe("isFlagSet", () => {
  it.each([true, 1, "1", "true", "TRUE", "True"])("%j is set", (v) => expect(isFlagSet(v)).toBe(true));
  it.each([false, 0, "0", "false", "", "yes", null, undefined, 2, "tru", [true], {}])("%j is not set", (v) => expect(isFlagSet(v)).toBe(false));
});
