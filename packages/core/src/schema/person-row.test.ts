import { describe, expect, it } from "vitest";
import { errorOf } from "../query/test-helpers.js";
import { validateInput } from "./input.js";
import { newPersonData, SYSTEM_FIELD_EDITABLE } from "./person.js";
import { personRowData } from "./person-row.js";

const URI = "/demo/person/0123456789abcdef01234567/";

/** What the import did before personRowData: the generated names dropped, validated, completed. */
function slow(row: Record<string, unknown>): Record<string, unknown> {
  const input = Object.fromEntries(Object.entries(row).filter(([k]) => !Object.hasOwn(SYSTEM_FIELD_EDITABLE, k)));
  return newPersonData(validateInput("person", input));
}

const whole = newPersonData({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], tags: ["x"], geo: { lat: 51.5 } });

describe("personRowData", () => {
  it.each([
    { name: "a whole exported person", row: whole },
    { name: "stale generated names are derived again", row: { ...whole, formatted_name: "Old", salutation: "Hi", sortable_name: "old" } },
    { name: "list nulls dropped, an empty list unset", row: { ...whole, email: [null, "a@x.org"], telephone: [], tags: [null] } },
    { name: "a reference object becomes its URI", row: { ...whole, source: { display_value: "Ada", ref: URI }, connections: [{ ref: URI }] } },
    { name: "a partial row (the general path)", row: { first_name: "Ada", tags: ["a"] } },
    { name: "keys in another order (the general path)", row: { last_name: "L", ...whole } },
    { name: "a key set to undefined (the general path)", row: { ...whole, geo: undefined } },
  ])("$name: the same data, keys and order as the general path", ({ row }) => {
    const out = personRowData(row as Record<string, unknown>);
    expect(JSON.stringify(out)).toBe(JSON.stringify(slow(row as Record<string, unknown>)));
  });

  it("does not change the row it is given", () => {
    const row = { ...whole, email: [null, "a@x.org"], formatted_name: "Old" };
    const copy = JSON.parse(JSON.stringify(row));
    personRowData(row);
    expect(row).toEqual(copy);
  });

  it.each([
    { name: "a wrong kind", row: { ...whole, first_name: 5 }, message: "invalid field value", detail: "first_name: expected text or null" },
    { name: "a number too large", row: { ...whole, geo: 1e400 }, message: "invalid field value", detail: '"geo": a number too large' },
    { name: "an unknown field", row: { ...whole, shoe_size: 2 }, message: "unknown fields", detail: "'shoe_size'" },
  ])("refuses $name as validateInput does", ({ row, message, detail }) => {
    const fast = errorOf(() => personRowData(row));
    const general = errorOf(() => slow(row));
    expect(fast).toMatchObject({ code: "bad_request", message });
    expect(fast.detail).toContain(detail);
    expect(fast.detail).toBe(general.detail);
  });
});
