import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./sort-order.js";
import { errorOf, parseQs } from "./test-helpers.js";

const isPersonField = (f: string) => ["last_name", "first_name"].includes(f);

describe("sort", () => {
  it.each([
    { qs: "", sort: undefined },
    { qs: "sort=last_name", sort: { field: "last_name", meta: false, descending: false } },
    { qs: "sort=-last_name", sort: { field: "last_name", meta: false, descending: true } },
    { qs: "sort=-created", sort: { field: "created", meta: true, descending: true } },
    { qs: "sort=id", sort: { field: "id", meta: true, descending: false } },
    { qs: "sort=a&sort=-last_updated", sort: { field: "last_updated", meta: true, descending: true } },
    { qs: "sort=any_field", sort: { field: "any_field", meta: false, descending: false } },
  ])("?$qs", ({ qs, sort }) => {
    const q = parseQs(qs);
    expect(q.sort).toEqual(sort);
    expect(q.filters).toEqual([]);
  });

  it.each(["", "-", "--x", "+x", "last_name,first_name", "last name", "1abc", "x".repeat(129)])("refuses %j", (value) => {
    const e = errorOf(() => parseQs(`sort=${encodeURIComponent(value)}`));
    expect(e.code).toBe("bad_request");
    expect(e.message).toBe("bad sort");
    expect(e.detail).toContain("sort=-created");
  });

  it("refuses a field the type does not have, naming it", () => {
    const e = errorOf(() => parseQs("sort=-shoe_size", { isKnownField: isPersonField }));
    expect(e.message).toBe("bad sort");
    expect(e.detail).toContain('"shoe_size" is not a field of this resource type');
    expect(parseQs("sort=-created", { isKnownField: isPersonField }).sort?.field).toBe("created");
  });
});

describe("compareCodePoints", () => {
  it.each([
    { a: "a", b: "b", sign: -1 },
    { a: "ab", b: "a", sign: 1 },
    { a: "\uffff", b: "\u{10000}", sign: -1 },
    { a: "\ue000", b: "\ud7ff", sign: 1 },
    { a: "é", b: "é", sign: 0 },
  ])("$a vs $b", ({ a, b, sign }) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });
});
