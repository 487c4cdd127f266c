import { describe, expect, it } from "vitest";
import { apiParams, filtersOf, sortOf } from "./query.js";

describe("the list's order", () => {
  it.each([
    { qs: "", sort: undefined },
    { qs: "sort=last_name", sort: "last_name" },
    { qs: "sort=-created&order=newest", sort: "-created" },
    { qs: "order=newest", sort: "-created" },
    { qs: "order=oldest", sort: undefined },
  ])("?$qs", ({ qs, sort }) => {
    expect(sortOf(new URLSearchParams(qs))).toBe(sort);
  });
});

describe("the console's own parameters", () => {
  it("are neither filters nor sent to the list; the order goes as sort", () => {
    const p = new URLSearchParams("q=ada&order=newest&last_name=Lovelace&page=2");
    expect(filtersOf(p)).toEqual([{ field: "last_name", modifier: "eq", value: "Lovelace" }]);
    expect(apiParams(p).toString()).toBe("last_name=Lovelace&page=2&sort=-created");
    expect(filtersOf(new URLSearchParams("sort=-last_name&tags=vip"))).toEqual([{ field: "tags", modifier: "eq", value: "vip" }]);
  });
});
