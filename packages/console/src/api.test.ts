import { describe, expect, it } from "vitest";
import { fieldErrors } from "./api.js";

describe("fieldErrors", () => {
  it("keeps each field's message whole, a '; ' inside it included", () => {
    expect(fieldErrors('"notes": a text of 262145 characters; at most 262144 are accepted', ["notes", "bio"])).toEqual({
      notes: '"notes": a text of 262145 characters; at most 262144 are accepted',
    });
    expect(fieldErrors("date_of_birth: expected a date; adult: expected true, false or null", ["date_of_birth", "adult"])).toEqual({
      date_of_birth: "expected a date",
      adult: "expected true, false or null",
    });
  });

  it("names no field for a message about none", () => {
    expect(fieldErrors("the record is deleted; restore it first", ["notes"])).toEqual({});
  });
});
