import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import { assertServedType, DEFAULT_RESOURCE_TYPES, isResourceTypeName, resourceTypeSet } from "./resource-types.js";

describe("resource types", () => {
  it.each([
    "person", "organisation", "journal", "member", "membership", "booking", "reservation", "bookable",
    "payment", "payment_plan", "activity", "allocation", "segment", "search", "trigger", "data_event",
    "core_event", "ticket", "ticketed_event", "invoice", "pledge", "donation", "form_response",
    "achievement", "evidence", "mandate", "application",
  ])("serves %s by default", (type) => {
    expect(DEFAULT_RESOURCE_TYPES).toContain(type);
    expect(() => assertServedType(resourceTypeSet(), type)).not.toThrow();
  });

  it("does not serve bulk_action as a generic type", () => {
    expect(() => assertServedType(resourceTypeSet(), "bulk_action")).toThrow(RecordsError);
  });

  it.each([
    { name: "unknown type", type: "widget", detail: "'widget'" },
    { name: "upper case", type: "Person", detail: "not a valid resource type name" },
    { name: "leading digit", type: "1person", detail: "not a valid resource type name" },
    { name: "dash", type: "payment-plan", detail: "not a valid resource type name" },
    { name: "too long", type: "a".repeat(65), detail: "not a valid resource type name" },
    { name: "empty", type: "", detail: "not a valid resource type name" },
  ])("404 for $name", ({ type, detail }) => {
    try {
      assertServedType(resourceTypeSet(), type);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: "not_found", message: "unknown resource type" });
      expect((e as RecordsError).detail).toContain(detail);
    }
  });

  it.each([
    ["a", true],
    ["a".repeat(64), true],
    ["a".repeat(65), false],
    ["volunteer_shift2", true],
    ["_x", false],
  ])("isResourceTypeName(%s) = %s", (name, ok) => {
    expect(isResourceTypeName(name)).toBe(ok);
  });

  it("adds extra types", () => {
    const set = resourceTypeSet(["volunteer"]);
    expect(set.has("volunteer")).toBe(true);
    expect(set.has("person")).toBe(true);
  });

  it.each([
    { extra: "Bad Name", message: "invalid resource type name" },
    { extra: "bulk_action", message: "reserved resource type name" },
  ])("refuses extra type $extra", ({ extra, message }) => {
    expect(() => resourceTypeSet([extra])).toThrow(message);
  });
});
