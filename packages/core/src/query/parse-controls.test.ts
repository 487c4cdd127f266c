import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "./limits.js";
import { parseControls } from "./parse-controls.js";
import { errorOf, parseQs } from "./test-helpers.js";

// Controls are tested through parseListQuery, as routes use them, plus parseControls directly.
const controls = (q: string) => {
  const { filters, ...rest } = parseQs(q);
  expect(filters).toEqual([]);
  return rest;
};

describe("list controls", () => {
  it("default to AND, live records, page 1 of 25", () => {
    expect(controls("")).toEqual({ mode: "AND", states: ["updated"], page: 1, pageSize: DEFAULT_PAGE_SIZE });
    expect(parseControls(new Map())).toEqual({ mode: "AND", states: ["updated"], page: 1, pageSize: 25 });
  });

  describe("mode", () => {
    it.each([
      { value: "AND", mode: "AND" },
      { value: "and", mode: "AND" },
      { value: "OR", mode: "OR" },
      { value: "Or", mode: "OR" },
    ])("$value -> $mode", ({ value, mode }) => {
      expect(controls(`mode=${value}`).mode).toBe(mode);
    });

    it.each(["", "XOR", "both", "AND OR", "1"])("refuses %j", (value) => {
      const e = errorOf(() => controls(`mode=${encodeURIComponent(value)}`));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe("bad mode");
      expect(e.detail).toContain(JSON.stringify(value));
      expect(e.detail).toContain("AND or OR");
    });
  });

  describe("include_deleted and state", () => {
    it.each(["Y", "y", "yes", "YES", "true", "True", "1"])("include_deleted=%s shows both states", (value) => {
      expect(controls(`include_deleted=${value}`).states).toEqual(["updated", "deleted"]);
    });

    it.each(["N", "n", "no", "false", "FALSE", "0"])("include_deleted=%s shows live records only", (value) => {
      expect(controls(`include_deleted=${value}`).states).toEqual(["updated"]);
    });

    it.each(["", "maybe", "2", "Yy", "on"])("refuses include_deleted=%j", (value) => {
      const e = errorOf(() => controls(`include_deleted=${value}`));
      expect(e.message).toBe("bad include_deleted");
      expect(e.detail).toContain(JSON.stringify(value));
      expect(e.detail).toContain("Y or N");
    });

    it.each([
      { q: "state=deleted", states: ["deleted"] },
      { q: "state=DELETED", states: ["deleted"] },
      { q: "include_deleted=Y&state=deleted", states: ["deleted"] },
      { q: "include_deleted=N&state=deleted", states: ["deleted"] },
      { q: "state=updated", states: ["updated"] },
      { q: "include_deleted=Y&state=updated", states: ["updated"] },
    ])("$q -> $states", ({ q, states }) => {
      expect(controls(q).states).toEqual(states);
    });

    it.each(["", "all", "active", "deleted,updated"])("refuses state=%j", (value) => {
      const e = errorOf(() => controls(`state=${value}`));
      expect(e.message).toBe("bad state");
      expect(e.detail).toContain("updated or deleted");
    });
  });

  describe("page", () => {
    it.each([
      { value: "1", page: 1 },
      { value: "7", page: 7 },
      { value: "007", page: 7 },
      { value: String(MAX_PAGE), page: MAX_PAGE },
    ])("page=$value", ({ value, page }) => {
      expect(controls(`page=${value}`).page).toBe(page);
    });

    it.each(["0", "-1", "1.5", "abc", "", "1e3", "+2", "%202", String(MAX_PAGE + 1), "99999999999999999999999"])(
      "refuses page=%s",
      (value) => {
        const e = errorOf(() => controls(`page=${value}`));
        expect(e.code).toBe("bad_request");
        expect(e.message).toBe("bad page");
        expect(e.detail).toContain(`from 1 to ${MAX_PAGE}`);
      },
    );
  });

  describe.each(["page_size", "limit"])("%s", (name) => {
    it.each([
      { value: "1", size: 1 },
      { value: "10", size: 10 },
      { value: "1000", size: 1000 },
      { value: String(MAX_PAGE_SIZE), size: MAX_PAGE_SIZE },
    ])(`${name}=$value`, ({ value, size }) => {
      expect(controls(`${name}=${value}`).pageSize).toBe(size);
    });

    it.each(["0", "-1", String(MAX_PAGE_SIZE + 1), "1.5", "abc", "", "1e2", "+5", "10 "])(`refuses ${name}=%j`, (value) => {
      const e = errorOf(() => controls(`${name}=${encodeURIComponent(value)}`));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe(`bad ${name}`);
      expect(e.detail).toContain(name);
      expect(e.detail).toContain(JSON.stringify(value));
      expect(e.detail).toContain(`from 1 to ${MAX_PAGE_SIZE}`);
    });
  });

  describe("page_size and limit together", () => {
    it.each([
      { q: "page_size=10&limit=20", size: 10 },
      { q: "limit=20&page_size=10", size: 10 },
      { q: "limit=20", size: 20 },
    ])("$q -> $size", ({ q, size }) => {
      expect(controls(q).pageSize).toBe(size);
    });

    it.each(["page_size=10&limit=0", "page_size=0&limit=10"])("still refuses a bad value in %s", (q) => {
      expect(errorOf(() => controls(q)).code).toBe("bad_request");
    });
  });

  it.each([
    { q: "page=2&page=3", key: "page", value: 3 },
    { q: "mode=AND&mode=OR", key: "mode", value: "OR" },
    { q: "page=abc&page=2", key: "page", value: 2 },
  ])("the last occurrence wins: $q", ({ q, key, value }) => {
    expect(controls(q)).toMatchObject({ [key]: value });
  });
});
