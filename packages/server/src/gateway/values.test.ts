import { describe, expect, it } from "vitest";
import { routeShape } from "./hosted-operations.js";
import type { GatewayParams } from "./params.js";
import { booleanParam, listParam } from "./values.js";
import { slugifyLabel } from "../routes/membership-extras.js";
import { vehicleNumber } from "../routes/vehicle-search.js";

/** Parameters as readGatewayParams gives them, from a plain object (a JSON body). */
function params(body: Record<string, unknown>): GatewayParams {
  const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);
  return {
    get: (n) => (Object.hasOwn(body, n) ? text(body[n]) : undefined),
    value: (n) => body[n],
    all: (n) => (Object.hasOwn(body, n) ? (Array.isArray(body[n]) ? (body[n] as unknown[]) : [body[n]]).map(text).filter((s): s is string => s !== undefined) : []),
    has: (n) => Object.hasOwn(body, n),
    names: () => Object.keys(body),
  };
}

describe("gateway values", () => {
  it("reads booleans in the usual spellings and refuses others", () => {
    expect(booleanParam(params({ a: true, b: "No", c: "1", d: "off" }), "a", false)).toBe(true);
    expect(booleanParam(params({ b: "No" }), "b", true)).toBe(false);
    expect(booleanParam(params({ c: "1" }), "c")).toBe(true);
    expect(booleanParam(params({}), "x")).toBeUndefined();
    expect(booleanParam(params({}), "x", true)).toBe(true);
    expect(() => booleanParam(params({ a: "maybe" }), "a")).toThrow(/bad a/);
    expect(() => booleanParam(params({ a: null }), "a")).toThrow(/bad a/);
  });

  it("reads lists from arrays, repeats and commas, and refuses objects", () => {
    expect(listParam(params({ p: ["a", " b ", ""] }), "p")).toEqual(["a", "b"]);
    expect(listParam(params({ p: "a, b,,c" }), "p")).toEqual(["a", "b", "c"]);
    expect(listParam(params({ p: "" }), "p")).toEqual([]);
    expect(listParam(params({}), "p")).toBeUndefined();
    expect(() => listParam(params({ p: { a: 1 } }), "p")).toThrow(/bad p/);
    expect(() => listParam(params({ p: [["a"]] }), "p")).toThrow(/bad p/);
  });

  it("slugifies labels, compares vehicle numbers and route shapes", () => {
    expect(slugifyLabel("Emergency contact (phone)")).toBe("emergency_contact_phone");
    expect(slugifyLabel("  Élève  n° ")).toBe("eleve_n");
    expect(slugifyLabel("!!!")).toBe("");
    expect(vehicleNumber("AB12 cde")).toBe(vehicleNumber("ab12-CDE"));
    expect(vehicleNumber("AB12 CDE")).not.toBe(vehicleNumber("AB12 CDF"));
    expect(routeShape("/a/:flock/b/:uid/")).toBe("/a/:/b/:");
  });
});
