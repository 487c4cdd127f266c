import { describe, expect, it } from "vitest";
import { dateText, displayOf, labelOf } from "./format.js";

describe("labelOf", () => {
  it.each([
    ["first_name", "First name"],
    ["contact_created", "Contact created"],
    ["x", "X"],
    ["__", "__"],
  ])("%s → %s", (field, label) => expect(labelOf(field)).toBe(label));
});

describe("displayOf", () => {
  it("shows timestamps without microseconds and dates as dates", () => {
    const stamp = displayOf("2026-11-25T14:12:10.462000");
    expect(stamp).not.toMatch(/462|T14/);
    expect(stamp).toMatch(/2026/);
    expect(displayOf("2026-11-25")).toMatch(/25/);
    expect(displayOf("2026-11-25")).not.toMatch(/:/);
  });
  it("leaves other text, lists and values readable", () => {
    expect(displayOf("2026-13-99T")).toBe("2026-13-99T");
    expect(displayOf("not a date")).toBe("not a date");
    expect(displayOf(["vip", null, "", "donor"])).toBe("vip, donor");
    expect(displayOf([null])).toBe("");
    expect(displayOf(3)).toBe("3");
    expect(displayOf({ a: 1 })).toBe('{"a":1}');
    expect(dateText("2026-02-30")).toBeUndefined();
  });
});
