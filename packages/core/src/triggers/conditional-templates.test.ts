import { describe, expect, it } from "vitest";
import { parseConditionalTemplates, pickTemplate, referencesToResolve, type TemplateContext } from "./conditional-templates.js";

const ADA = "/demo/person/0123456789abcdef01234567/";
const CLUB = "/demo/organisation/0123456789abcdef01234568/";
const names: Record<string, string> = { [ADA]: "Ada Lovelace", [CLUB]: "Chess Club" };
const resolve = (uri: string) => names[uri];

const context: TemplateContext = {
  data: {
    membership_type: "gold",
    amount: 25,
    auto_renew: true,
    tags: ["member", "vip"],
    email: ["ada@example.org;home"],
    member: ADA,
    organisation: { display_value: "Chess Club", ref: CLUB },
    connections: [`${CLUB};employer`],
    notes: null,
  },
  event: { name: "expiring_2wk", event: "expiring", variation: "2wk", tags: ["send-json-webhook"] },
};

const rule = (order: number, template: string, ...conditions: Record<string, string | number | boolean | null>[]) => ({
  order,
  template,
  conditions,
});

describe("pickTemplate: the spec's seven rules", () => {
  it.each([
    // Rule 1: rules are JSON; invalid JSON is not evaluated.
    { rule: 1, name: "a JSON string is evaluated", rules: JSON.stringify({ template: [rule(1, "gold", { membership_type: "gold" })] }), expected: "gold" },
    { rule: 1, name: "invalid JSON is not evaluated", rules: '{"template": [', expected: "default" },
    { rule: 1, name: "a rule set of the wrong shape is not evaluated", rules: { template: [{ order: "1", template: "x" }] }, expected: "default" },
    { rule: 1, name: "a misspelt key is not evaluated", rules: { templates: [rule(1, "x")] }, expected: "default" },
    // Rule 2: ascending order.
    {
      rule: 2,
      name: "the lowest order wins, whatever the written order",
      rules: { template: [rule(5, "late", { tags: "vip" }), rule(2, "early", { tags: "member" })] },
      expected: "early",
    },
    { rule: 2, name: "equal orders keep their written order", rules: { template: [rule(1, "first"), rule(1, "second")] }, expected: "first" },
    { rule: 2, name: "negative orders come first", rules: { template: [rule(0, "zero"), rule(-3, "minus")] }, expected: "minus" },
    // Rule 3: all conditions must hold.
    {
      rule: 3,
      name: "every condition of every object holds",
      rules: { template: [rule(1, "both", { membership_type: "gold", tags: "vip" }, { amount: 25 })] },
      expected: "both",
    },
    {
      rule: 3,
      name: "one failing condition fails the rule",
      rules: { template: [rule(1, "both", { membership_type: "gold" }, { tags: "nope" }), rule(2, "next")] },
      expected: "next",
    },
    { rule: 3, name: "a rule without conditions applies", rules: { template: [rule(1, "always")] }, expected: "always" },
    // Rule 4: fallback to the action's template, or none.
    { rule: 4, name: "no rule matches: the action's template", rules: { template: [rule(1, "x", { membership_type: "silver" })] }, expected: "default" },
    { rule: 4, name: "no rules at all: the action's template", rules: null, expected: "default" },
    { rule: 4, name: "no match and no template: none", rules: { template: [rule(1, "x", { membership_type: "silver" })] }, fallback: null, expected: null },
    { rule: 4, name: "an empty template counts as none", rules: { template: [] }, fallback: "", expected: null },
    // Rule 5: any field of the data event, simple equality.
    { rule: 5, name: "a number equals its text", rules: { template: [rule(1, "n", { amount: "25" })] }, expected: "n" },
    { rule: 5, name: "a boolean equals true", rules: { template: [rule(1, "b", { auto_renew: true })] }, expected: "b" },
    { rule: 5, name: "equality is exact (case)", rules: { template: [rule(1, "g", { membership_type: "Gold" })] }, expected: "default" },
    { rule: 5, name: "no substring match", rules: { template: [rule(1, "g", { membership_type: "gol" })] }, expected: "default" },
    { rule: 5, name: "the data event's own fields", rules: { template: [rule(1, "v", { variation: "2wk", event: "expiring" })] }, expected: "v" },
    { rule: 5, name: "null matches an unset field", rules: { template: [rule(1, "u", { notes: null, missing: null })] }, expected: "u" },
    { rule: 5, name: "a missing field never equals a value", rules: { template: [rule(1, "m", { missing: "x" })] }, expected: "default" },
    // Rule 6: list fields hold when the value is one of the entries.
    { rule: 6, name: "one of the tags", rules: { template: [rule(1, "vip", { tags: "vip" })] }, expected: "vip" },
    { rule: 6, name: "not one of the tags", rules: { template: [rule(1, "x", { tags: "staff" })] }, expected: "default" },
    { rule: 6, name: "a record field shadows the event's field of the same name", rules: { template: [rule(1, "x", { tags: "send-json-webhook" })] }, expected: "default" },
    { rule: 6, name: "an entry's value without its label", rules: { template: [rule(1, "e", { email: "ada@example.org" })] }, expected: "e" },
    { rule: 6, name: "the whole entry", rules: { template: [rule(1, "e", { email: "ada@example.org;home" })] }, expected: "e" },
    // Rule 7: references by URI or name.
    { rule: 7, name: "a reference by its URI", rules: { template: [rule(1, "r", { member: ADA })] }, expected: "r" },
    { rule: 7, name: "a reference by its URI without the slash", rules: { template: [rule(1, "r", { member: ADA.slice(0, -1) })] }, expected: "r" },
    { rule: 7, name: "a reference by its name", rules: { template: [rule(1, "r", { member: "Ada Lovelace" })] }, expected: "r" },
    { rule: 7, name: "a reference by another name", rules: { template: [rule(1, "r", { member: "Grace Hopper" })] }, expected: "default" },
    { rule: 7, name: "an expanded reference by its display value", rules: { template: [rule(1, "o", { organisation: "Chess Club" })] }, expected: "o" },
    { rule: 7, name: "an expanded reference by its URI", rules: { template: [rule(1, "o", { organisation: CLUB })] }, expected: "o" },
    { rule: 7, name: "a list of references by name", rules: { template: [rule(1, "c", { connections: "Chess Club" })] }, expected: "c" },
    { rule: 7, name: "a list of references by URI", rules: { template: [rule(1, "c", { connections: CLUB })] }, expected: "c" },
  ])("rule $rule: $name", ({ rules, fallback, expected }) => {
    expect(pickTemplate(rules, context, fallback === undefined ? "default" : fallback, resolve)).toBe(expected);
  });

  it("without a resolver, references match by URI only", () => {
    const rules = { template: [rule(1, "r", { member: "Ada Lovelace" }), rule(2, "u", { member: ADA })] };
    expect(pickTemplate(rules, context, null)).toBe("u");
  });
});

describe("parseConditionalTemplates", () => {
  it.each([
    ["{oops", /^invalid JSON/],
    ["[]", /^template: .*Expected "template"/],
    [{ template: "x" }, /^template: .*Array/],
    [{ template: [{ order: 1.5, template: "x" }] }, /^template\.0\.order/],
    [{ template: [{ order: 1, template: "" }] }, /^template\.0\.template/],
    [{ template: [{ order: 1, template: "x", conditions: [{ a: { b: 1 } }] }] }, /^template\.0\.conditions\.0\.a/],
    [{ template: [{ order: 1, template: "x", extra: 1 }] }, /^template\.0\.extra/],
  ])("refuses %j", (input, problem) => {
    const r = parseConditionalTemplates(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(problem);
  });

  it("accepts a rule without conditions", () => {
    expect(parseConditionalTemplates({ template: [{ order: 1, template: "x" }] })).toEqual({
      ok: true,
      rules: { template: [{ order: 1, template: "x", conditions: [] }] },
    });
  });
});

describe("referencesToResolve", () => {
  it("lists the URIs the conditions look at", () => {
    const rules = { template: [rule(1, "x", { member: "Ada Lovelace", tags: "vip" }), rule(2, "y", { connections: "Chess Club" })] };
    expect(referencesToResolve(rules, context).sort()).toEqual([ADA, CLUB].sort());
    expect(referencesToResolve("{bad", context)).toEqual([]);
  });
});
