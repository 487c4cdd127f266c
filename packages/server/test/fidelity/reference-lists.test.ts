/**
 * Issue 14, point 9: references held in a list (`context_ref: [uri, uri]`) expand in the
 * single-record shape as scalar references do; lists keep the URIs.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";

describe.each(EVERY_ADAPTER)("reference lists on %s", (name) => {
  const setup = setupOn(name);

  it.skipIf(!adapterAvailable(name))("expands whole-URI entries in create and get, not in lists", async () => {
    const t = await setup();
    const ada = `/alpha/person/${await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" })}/`;
    const org = `/alpha/organisation/${await seed(t, "alpha", "organisation", { name: "Acme" })}/`;
    const foreign = `/beta/person/${await seed(t, "beta", "person", { first_name: "Bo" })}/`;
    const made = await t.call("POST", "/api/v1/alpha/journal/", {
      key: KEYS.alice,
      json: { context_ref: [ada, { display_value: "stale", ref: org }, foreign, `${ada};parent`] },
    });
    const created = (await made.json()) as Record<string, any>;
    const expected = [{ display_value: "Ada Lovelace", ref: ada }, { display_value: "Acme", ref: org }, foreign, `${ada};parent`];
    expect(created.data.context_ref).toEqual(expected);
    for (const prefix of ["/api/v1", "/api/v2"]) {
      const got = (await (await t.call("GET", `${prefix}${created.uri}`, { key: KEYS.alice })).json()) as Record<string, any>;
      expect(got.data.context_ref).toEqual(expected);
    }
    const list = (await (await t.call("GET", "/api/v1/alpha/journal/", { key: KEYS.alice })).json()) as Record<string, any>;
    expect(list.results[0].data.context_ref).toEqual([ada, org, foreign, `${ada};parent`]);
  });
});
