import { describe, expect, it } from "vitest";
import {
  formattedName,
  newPersonData,
  PERSON_FIELDS,
  personFieldsOfKind,
  salutation,
  sortableName,
  setDerivedNames,
} from "./person.js";

describe("person fields", () => {
  it.each([
    ["text", 35],
    ["system", 3],
    ["boolean", 8],
    ["flag", 1],
    ["date", 5],
    ["json", 1],
    ["integration", 7],
    ["handle", 5],
    ["list", 9],
  ] as const)("has every %s field of the spec (%i)", (kind, count) => {
    expect(personFieldsOfKind(kind)).toHaveLength(count);
  });

  it.each([
    ["first_name", "text"],
    ["photo", "text"],
    ["formatted_name", "system"],
    ["sortable_name", "system"],
    ["email_opt_out", "boolean"],
    ["hide_from_views", "flag"],
    ["date_of_birth", "date"],
    ["geo", "json"],
    ["accounting_last_sync", "integration"],
    ["professional_network_public_profile", "handle"],
    ["comms_permission", "list"],
    ["connections", "list"],
  ])("%s is %s", (field, kind) => {
    expect(PERSON_FIELDS[field]).toBe(kind);
  });
});

describe("newPersonData", () => {
  it("has every field: null, hide_from_views false, names derived", () => {
    const data = newPersonData({ first_name: "Ada", last_name: "Lovelace" });
    expect(Object.keys(data).sort()).toEqual(Object.keys(PERSON_FIELDS).sort());
    expect(data.hide_from_views).toBe(false);
    expect(data.formatted_name).toBe("Ada Lovelace");
    expect(data.salutation).toBe("Ada");
    expect(data.sortable_name).toBe("lovelace, ada");
    const others = Object.entries(data).filter(
      ([k]) => !["first_name", "last_name", "hide_from_views", "formatted_name", "salutation", "sortable_name"].includes(k),
    );
    expect(others.every(([, v]) => v === null)).toBe(true);
  });

  it("keeps the given hide_from_views", () => {
    expect(newPersonData({ hide_from_views: true }).hide_from_views).toBe(true);
  });
});

describe("derived names", () => {
  it.each([
    { name: "first and last", data: { first_name: "Ada", last_name: "Lovelace" }, expected: "Ada Lovelace" },
    {
      name: "title, names and suffix",
      data: { title: "Dr", first_name: "Ada", last_name: "Lovelace", name_suffix: "FRS" },
      expected: "Dr Ada Lovelace FRS",
    },
    { name: "empty parts skipped", data: { title: "", first_name: "  ", last_name: "Byron" }, expected: "Byron" },
    { name: "spaces squeezed", data: { first_name: " Ada  Augusta ", last_name: "King" }, expected: "Ada Augusta King" },
    { name: "known_as not used", data: { known_as: "Ada" }, expected: null },
    { name: "nothing", data: {}, expected: null },
    { name: "editable wins", data: { editable_formatted_name: "Countess", first_name: "Ada" }, expected: "Countess" },
    { name: "blank editable ignored", data: { editable_formatted_name: " ", first_name: "Ada" }, expected: "Ada" },
    { name: "non-strings ignored", data: { first_name: 5, last_name: "Lovelace" }, expected: "Lovelace" },
  ])("formatted_name: $name", ({ data, expected }) => {
    expect(formattedName(data)).toBe(expected);
  });

  it.each([
    { name: "editable wins", data: { editable_salutation: "Dear Ada", title: "Dr", last_name: "L" }, expected: "Dear Ada" },
    { name: "title and last name", data: { title: "Dr", first_name: "Ada", last_name: "Lovelace" }, expected: "Dr Lovelace" },
    { name: "title without last name", data: { title: "Dr", first_name: "Ada" }, expected: "Ada" },
    { name: "first name", data: { first_name: "Ada", last_name: "Lovelace" }, expected: "Ada" },
    { name: "known_as", data: { known_as: "Lady L", last_name: "Lovelace" }, expected: "Lady L" },
    { name: "first name before known_as", data: { first_name: "Ada", known_as: "Lady L" }, expected: "Ada" },
    { name: "nothing", data: { last_name: "Lovelace" }, expected: null },
  ])("salutation: $name", ({ data, expected }) => {
    expect(salutation(data)).toBe(expected);
  });

  it.each([
    { name: "both", data: { first_name: "Ada", last_name: "Lovelace" }, expected: "lovelace, ada" },
    { name: "last only", data: { last_name: "Lovelace" }, expected: "lovelace" },
    { name: "first only", data: { first_name: "Ada" }, expected: "ada" },
    { name: "neither", data: { title: "Dr" }, expected: null },
    { name: "non-ASCII", data: { first_name: "Émile", last_name: "Ørsted" }, expected: "ørsted, émile" },
  ])("sortable_name: $name", ({ data, expected }) => {
    expect(sortableName(data)).toBe(expected);
  });

  it("setDerivedNames replaces stale generated values in place, keeping the keys' order", () => {
    const given = { formatted_name: "stale", first_name: "Ada", salutation: "x", sortable_name: "y" };
    const data = setDerivedNames(given);
    expect(data).toBe(given);
    expect(Object.entries(data)).toEqual([["formatted_name", "Ada"], ["first_name", "Ada"], ["salutation", "Ada"], ["sortable_name", "ada"]]);
  });
});
