import { describe, expect, it } from "vitest";
import { hrefOf, parseHash } from "./route.js";

describe("parseHash", () => {
  it.each([
    { hash: "#/demo/person/6b0a", expected: { flock: "demo", section: "person", id: "6b0a" } },
    { hash: "#/demo/caf%C3%A9", expected: { flock: "demo", section: "café" } },
    // A malformed escape stays as written instead of throwing.
    { hash: "#/demo/%E0%A4%A", expected: { flock: "demo", section: "%E0%A4%A" } },
    { hash: "#/%/person/%zz", expected: { flock: "%", section: "person", id: "%zz" } },
  ])("$hash", ({ hash, expected }) => {
    const { params, ...route } = parseHash(hash);
    expect(route).toEqual(expected);
    expect(params).toBeInstanceOf(URLSearchParams);
  });
});

describe("hrefOf", () => {
  it("encodes each part, a lone surrogate as U+FFFD", () => {
    expect(hrefOf(["demo", "a/b", "\ud800"])).toBe("#/demo/a%2Fb/%EF%BF%BD");
    expect(hrefOf(["demo", "person"], new URLSearchParams("a=1"))).toBe("#/demo/person?a=1");
  });
});
