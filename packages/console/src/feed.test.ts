import { describe, expect, it } from "vitest";
import { changeOf } from "./feed.js";

describe("changeOf", () => {
  it("reads a change", () => {
    const data = JSON.stringify({ uri: "/demo/person/6b0a/", resource_type: "person", state: "updated", version: 2, changed_at: "2026-01-01T00:00:00", fields: ["a"] });
    expect(changeOf("7", data)).toEqual({ id: 7, uri: "/demo/person/6b0a/", resource_type: "person", state: "updated", version: 2, changed_at: "2026-01-01T00:00:00", fields: ["a"] });
  });

  it.each([
    { name: "not JSON", data: "{" },
    { name: "not an object", data: "42" },
    { name: "null", data: "null" },
    { name: "no uri", data: '{"resource_type":"person"}' },
    { name: "a uri that is not a string", data: '{"uri":{"a":1},"resource_type":"person"}' },
  ])("skips $name", ({ data }) => {
    expect(changeOf("1", data)).toBeUndefined();
  });
});
