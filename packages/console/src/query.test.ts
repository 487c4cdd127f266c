import { describe, expect, it } from "vitest";
import { apiParams, filtersOf, newestSlice } from "./query.js";

describe("newestSlice", () => {
  it.each([
    { total: 103, page: 1, size: 25, expected: { from: 78, to: 103, pages: [4, 5] } },
    { total: 103, page: 5, size: 25, expected: { from: 0, to: 3, pages: [1] } },
    { total: 100, page: 1, size: 25, expected: { from: 75, to: 100, pages: [4] } },
    { total: 5, page: 2, size: 2, expected: { from: 1, to: 3, pages: [1, 2] } },
    { total: 5, page: 3, size: 2, expected: { from: 0, to: 1, pages: [1] } },
    { total: 0, page: 1, size: 25, expected: { from: 0, to: 0, pages: [] } },
    { total: 3, page: 9, size: 25, expected: { from: 0, to: 0, pages: [] } },
  ])("$total records, page $page of $size", ({ total, page, size, expected }) => {
    expect(newestSlice(total, page, size)).toEqual(expected);
  });
});

describe("the console's own parameters", () => {
  it("are neither filters nor sent to the list", () => {
    const p = new URLSearchParams("q=ada&order=newest&last_name=Lovelace&page=2");
    expect(filtersOf(p)).toEqual([{ field: "last_name", modifier: "eq", value: "Lovelace" }]);
    expect(apiParams(p).toString()).toBe("last_name=Lovelace&page=2");
  });
});
