import { describe, expect, it } from "vitest";
import { APPLICATION_HEADER_MAX_LENGTH, applicationWarning, parseApplicationHeader } from "./application-header.js";

describe("parseApplicationHeader", () => {
  it.each([
    { value: "Acme/Sync/1.0", expected: ["Acme", "Sync", "1.0"] },
    { value: "Acme Ltd/Membership Sync/2.1.0-beta", expected: ["Acme Ltd", "Membership Sync", "2.1.0-beta"] },
    { value: "  Acme / Sync / 1 ", expected: ["Acme", "Sync", "1"] },
    { value: "Société Générale/Café/été", expected: ["Société Générale", "Café", "été"] },
    { value: `${"o".repeat(66)}/${"a".repeat(66)}/${"v".repeat(66)}`, expected: ["o".repeat(66), "a".repeat(66), "v".repeat(66)] },
  ])("accepts $value", ({ value, expected }) => {
    const [organisation, application, version] = expected;
    expect(parseApplicationHeader(value)).toEqual({
      ok: true,
      organisation,
      application,
      version,
      label: expected.join("/"),
    });
  });

  it.each([
    { name: "no header", value: undefined, kind: "missing", says: "missing" },
    { name: "null", value: null, kind: "missing", says: "missing" },
    { name: "an empty header", value: "", kind: "missing", says: "missing" },
    { name: "a blank header", value: "   ", kind: "missing", says: "missing" },
    { name: "one part", value: "Acme", kind: "malformed", says: "has 1 part instead" },
    { name: "two parts", value: "Acme/Sync", kind: "malformed", says: "has 2 parts" },
    { name: "four parts", value: "Acme/Sync/1/extra", kind: "malformed", says: "has 4 parts" },
    { name: "a URL", value: "https://acme.example/app", kind: "malformed", says: "has 4 parts" },
    { name: "an empty organisation", value: "/Sync/1", kind: "malformed", says: "empty Organisation" },
    { name: "an empty application", value: "Acme/ /1", kind: "malformed", says: "empty Application" },
    { name: "an empty version", value: "Acme/Sync/", kind: "malformed", says: "empty Version" },
    { name: "only slashes", value: "//", kind: "malformed", says: "empty Organisation" },
    { name: "too long", value: `Acme/Sync/${"1".repeat(APPLICATION_HEADER_MAX_LENGTH)}`, kind: "malformed", says: "longer than 200" },
    { name: "a tab", value: "Acme/Sy\tnc/1", kind: "malformed", says: "control characters" },
    { name: "a NUL", value: "Acme/Sync/1\u0000", kind: "malformed", says: "control characters" },
    { name: "DEL", value: "Acme/Sync/1\u007f", kind: "malformed", says: "control characters" },
  ])("refuses $name", ({ value, kind, says }) => {
    const result = parseApplicationHeader(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.kind).toBe(kind);
    expect(result.reason).toContain(says);
    expect(result.reason).toContain("<Organisation>/<Application>/<Version>");
  });

  it("accepts exactly the maximum length and refuses one more", () => {
    const at = (n: number) => `Acme/Sync/${"1".repeat(n - "Acme/Sync/".length)}`;
    expect(parseApplicationHeader(at(APPLICATION_HEADER_MAX_LENGTH)).ok).toBe(true);
    expect(parseApplicationHeader(at(APPLICATION_HEADER_MAX_LENGTH + 1)).ok).toBe(false);
  });

  it("never echoes the value in the reason", () => {
    const result = parseApplicationHeader('"evil"\\ value');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).not.toContain("evil");
  });
});

describe("applicationWarning", () => {
  it.each([
    { name: "attributed", value: "Acme/Sync/1", expected: undefined },
    { name: "missing", value: undefined, expected: undefined },
    {
      name: "malformed",
      value: "Acme/Sync",
      expected: '299 records-service "APPLICATION header ignored: it has 2 parts instead of 3; expected <Organisation>/<Application>/<Version>"',
    },
  ])("$name → $expected", ({ value, expected }) => {
    expect(applicationWarning(parseApplicationHeader(value))).toBe(expected);
  });

  it("is a valid header value (no quotes inside the quoted text, no control characters)", () => {
    const warning = applicationWarning(parseApplicationHeader("a\u0001/b/c"))!;
    expect(warning).toMatch(/^299 records-service "[^"\\\u0000-\u001f]*"$/);
  });
});
