/**
 * Issue 14, point 7: the hosted service's resource types are served, a flock's own types
 * come from config `resourceTypes`, and a membership's display value names its plan.
 */
import { describe, expect, it } from "vitest";
import { parseConfig, flockResourceTypes } from "../../src/config.js";
import { KEYS } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";

const HOSTED_TYPES = ["membership_type", "sheep_form", "form_template", "form_section", "email_sender", "fieldset", "invoice", "form_response"];

describe.each(EVERY_ADAPTER)("resource types on %s", (name) => {
  const setup = setupOn(name, { flockResourceTypes: { alpha: ["volunteer"] } });

  it.skipIf(!adapterAvailable(name))("serves the hosted types on both surfaces, with and without the slash", async () => {
    const t = await setup();
    for (const type of HOSTED_TYPES) {
      const made = await t.call("POST", `/api/v1/alpha/${type}/`, { key: KEYS.alice, json: { name: `a ${type}` } });
      expect(made.status, type).toBe(201);
      const list = await t.call("GET", `/api/v2/alpha/${type}`, { key: KEYS.alice });
      expect(((await list.json()) as { total: number }).total, type).toBe(1);
    }
  });

  it.skipIf(!adapterAvailable(name))("names a membership by its plan and number; renaming the plan shows after recalc", async () => {
    const t = await setup();
    const plan = await t.engine.create("alpha", "membership_type", { name: "Gold" });
    const planUri = `/alpha/membership_type/${plan.id}/`;
    expect(plan.displayValue).toBe("Gold");
    const res = await t.call("POST", "/api/v1/alpha/member/", { key: KEYS.alice, json: { membership_type: planUri, membership_number: "0042" } });
    const member = (await res.json()) as Record<string, any>;
    expect(member.display_value).toBe("Gold 0042");
    // The single-record shape expands the reference to the plan.
    expect(member.data.membership_type).toEqual({ display_value: "Gold", ref: planUri });
    const id = (member.uri as string).split("/")[3]!;
    // A plain-text plan is named as written; a number alone stays the number.
    expect((await t.engine.create("alpha", "membership", { membership_type: "Silver", membership_number: 7 })).displayValue).toBe("Silver 7");
    expect((await t.engine.create("alpha", "member", { membership_number: "8" })).displayValue).toBe("8");
    expect((await t.engine.create("alpha", "member", { name: "Honorary", membership_type: planUri })).displayValue).toBe("Honorary");
    await t.engine.update("alpha", "membership_type", plan.id, { name: "Platinum" });
    await t.call("POST", `/api/v1/alpha/member/${id}/recalc/`, { key: KEYS.alice });
    const display = await t.call("GET", `/api/v2/alpha/member/${id}/display`, { key: KEYS.alice });
    expect(await display.json()).toEqual({ display_value: "Platinum 0042" });
    // A plan in another flock is not looked up.
    const foreign = await t.engine.create("beta", "membership_type", { name: "Beta Gold" });
    const m2 = await t.engine.create("alpha", "member", { membership_type: `/beta/membership_type/${foreign.id}/`, membership_number: "9" });
    expect(m2.displayValue).toBe("9");
  });

  it.skipIf(!adapterAvailable(name))("serves a flock's own types in that flock only", async () => {
    const t = await setup();
    expect((await t.call("POST", "/api/v1/alpha/volunteer", { key: KEYS.alice, json: { name: "Vi" } })).status).toBe(201);
    const beta = await t.call("POST", "/api/v1/beta/volunteer", { key: KEYS.bob, json: { name: "Vi" } });
    expect(beta.status).toBe(404);
    expect(await beta.json()).toMatchObject({ error: "unknown resource type" });
    expect((await t.call("GET", "/api/v2/beta/volunteer/", { key: KEYS.bob })).status).toBe(404);
    expect((await t.call("GET", "/api/v1/alpha/volunteer/", { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/alpha/volunteer/", { key: KEYS.member })).status).toBe(403);
  });
});

describe("config resourceTypes", () => {
  it("maps each flock to its types", () => {
    const config = parseConfig({ flocks: [{ identifier: "demo" }], resourceTypes: [{ flock: "demo", types: ["volunteer", "grant"] }] });
    expect(flockResourceTypes(config)).toEqual({ demo: ["volunteer", "grant"] });
    expect(flockResourceTypes(parseConfig({}))).toEqual({});
  });

  it("accepts and ignores a default type (form became one in issue 21), so older configs keep starting", () => {
    const config = parseConfig({ flocks: [{ identifier: "demo" }], resourceTypes: [{ flock: "demo", types: ["form", "volunteer", "person"] }] });
    expect(flockResourceTypes(config)).toEqual({ demo: ["volunteer"] });
  });

  it.each([
    { name: "a bad name", value: [{ flock: "demo", types: ["Bad-Name"] }], says: "resourceTypes[0].types[0]" },
    { name: "a reserved name", value: [{ flock: "demo", types: ["contact"] }], says: "reserved" },
    { name: "no types", value: [{ flock: "demo", types: [] }], says: "at least one" },
    { name: "an unknown key", value: [{ flock: "demo", types: ["x"], extra: 1 }], says: "extra" },
    { name: "a repeated flock", value: [{ flock: "demo", types: ["x"] }, { flock: "demo", types: ["y"] }], says: "resourceTypes[1].flock" },
    { name: "a repeated type", value: [{ flock: "demo", types: ["x", "x"] }], says: "resourceTypes[0].types[1]" },
    { name: "not a list", value: { demo: ["x"] }, says: "resourceTypes" },
  ])("refuses $name", ({ value, says }) => {
    expect(() => parseConfig({ flocks: [{ identifier: "demo" }], resourceTypes: value })).toThrow(says);
  });
});
