import { describe, expect, it } from "vitest";
import { hasOwnRow, isMoving, statusLabel, type IndexView } from "./indexes.js";

const view = (over: Partial<IndexView>): IndexView => ({ type: "person", field: "email", status: "declared", source: "default", flock: "demo", progress: 1, ...over });

describe("the Indexes page's rows", () => {
  it("says how far a back-fill or a removal is, rounded down", () => {
    expect(statusLabel(view({ status: "building", progress: 0.426 }))).toBe("building 42%");
    expect(statusLabel(view({ status: "building", progress: 0.999 }))).toBe("building 99%");
    expect(statusLabel(view({ status: "dropped", progress: 0.5 }))).toBe("dropped, 50% removed");
    expect(statusLabel(view({ status: "dropped" }))).toBe("dropped");
    expect(statusLabel(view({ status: "earned" }))).toBe("earned");
  });

  it("looks again only while something moves", () => {
    expect(isMoving([view({}), view({ status: "dropped" })])).toBe(false);
    expect(isMoving([view({}), view({ status: "building", progress: 0.1 })])).toBe(true);
    expect(isMoving([view({ status: "dropped", progress: 0 })])).toBe(true);
  });

  it("offers reset for the flock's own rows only", () => {
    expect(hasOwnRow(view({}), "demo")).toBe(false);
    expect(hasOwnRow(view({ source: "operator" }), "demo")).toBe(true);
    expect(hasOwnRow(view({ source: "config", flock: "*" }), "demo")).toBe(false);
  });
});
