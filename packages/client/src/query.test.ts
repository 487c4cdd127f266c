import { describe, expect, it } from "vitest";
import { MODIFIERS, query, SMART_DATES } from "./query.js";
import type { PersonData } from "./types.js";

describe("query", () => {
  it.each([
    { name: "exact", build: () => query<PersonData>().where("last_name", "Lovelace"), expected: "last_name=Lovelace" },
    { name: "a modifier", build: () => query<PersonData>().where("first_name", "startswithi", "ad"), expected: "first_name__startswithi=ad" },
    { name: "repeated values", build: () => query<PersonData>().where("tags", "and", ["vip", "donor"]), expected: "tags__and=vip&tags__and=donor" },
    { name: "a v2 list modifier", build: () => query<PersonData>().where("tags", "orlist", ["a", "b"]), expected: "tags__orlist=a%2Cb" },
    { name: "a smart date on a meta field", build: () => query().where("created", "gte", "last month"), expected: "created__gte=last+month" },
    { name: "a Date", build: () => query().where("created", "lt", new Date("2026-01-02T03:04:05.678Z")), expected: "created__lt=2026-01-02T03%3A04%3A05.678000" },
    { name: "mode and paging, last setting wins", build: () => query().mode("OR").page(2).pageSize(10).pageSize(50), expected: "mode=OR&page=2&page_size=50" },
    { name: "newest first", build: () => query().sort("last_name").sort("created", true), expected: "sort=-created" },
    { name: "by a field", build: () => query<PersonData>().sort("last_name"), expected: "sort=last_name" },
    { name: "deleted only", build: () => query().includeDeleted(true), expected: "include_deleted=Y&state=deleted" },
  ])("$name", ({ build, expected }) => {
    expect(build().toSearchParams().toString()).toBe(expected);
  });

  it("leaves the original unchanged and knows its page", () => {
    const a = query().pageSize(10);
    const b = a.page(3);
    expect(a.pageNumber).toBe(1);
    expect(b.pageNumber).toBe(3);
    expect(b.size).toBe(10);
  });

  it("has the 16 modifiers and the 12 smart dates, and refuses another modifier", () => {
    expect(MODIFIERS).toHaveLength(16);
    expect(SMART_DATES).toHaveLength(12);
    expect(() => query().where("x", "like" as never, "y")).toThrow(/unknown modifier/);
  });
});
