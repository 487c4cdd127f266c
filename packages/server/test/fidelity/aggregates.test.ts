/**
 * Issue 14, point 4: group-by counts, distinct values and look-ups, with the list filters.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";

async function people(t: TestApp) {
  await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace", gender: "f", tags: ["vip", "donor"] });
  await seed(t, "alpha", "person", { first_name: "Adam", last_name: "Smith", gender: "m", tags: ["donor", "donor"] });
  await seed(t, "alpha", "person", { first_name: "Grace", last_name: "Hopper", gender: "f" });
  const gone = await seed(t, "alpha", "person", { first_name: "Old", last_name: "Gone", gender: "x" });
  await t.engine.delete("alpha", "person", gone);
  await seed(t, "alpha", "payment", { amount: 5 });
  await seed(t, "alpha", "payment", { amount: 5 });
  await seed(t, "alpha", "payment", { amount: 12.5 });
  await seed(t, "beta", "person", { first_name: "Bea", gender: "f" });
}

describe.each(EVERY_ADAPTER)("aggregates on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };
  const json = async (t: TestApp, path: string) => JSON.parse((await get(t, path)).text) as any;

  run("group-by counts, largest first, list entries once per record, with the list filters", async () => {
    const t = await setup();
    await people(t);
    for (const path of ["/api/v2/alpha/groupby/person/gender/count/", "/api/v1/alpha/groupby/person/gender/count"]) {
      expect(await json(t, path)).toEqual({ field: "gender", groups: 2, results: [{ count: 2, value: "f" }, { count: 1, value: "m" }] });
    }
    expect((await json(t, "/api/v2/alpha/groupby/person/tags/count")).results).toEqual([
      { count: 2, value: "donor" },
      { count: 1, value: null },
      { count: 1, value: "vip" },
    ]);
    expect((await json(t, "/api/v2/alpha/groupby/person/gender/count?first_name__startswith=Ad")).results).toEqual([
      { count: 1, value: "f" },
      { count: 1, value: "m" },
    ]);
    expect((await json(t, "/api/v2/alpha/groupby/person/gender/count?include_deleted=Y")).results).toContainEqual({ count: 1, value: "x" });
    expect((await json(t, "/api/v2/alpha/groupby/payment/amount/count")).results).toEqual([{ count: 2, value: 5 }, { count: 1, value: 12.5 }]);
  });

  run("group-by with by=year|month|day: dates and timestamps counted per period, other values as they are", async () => {
    const t = await setup();
    await people(t);
    await seed(t, "alpha", "membership", { end_date: "2026-03-01", membership_type: "a" });
    await seed(t, "alpha", "membership", { end_date: "2026-03-31", membership_type: "b" });
    await seed(t, "alpha", "membership", { end_date: "2026-04-02", membership_type: "c" });
    await seed(t, "alpha", "membership", { end_date: "2025-12-31" });
    expect((await json(t, "/api/v2/alpha/groupby/membership/end_date/count?by=month")).results).toEqual([
      { count: 2, value: "2026-03" },
      { count: 1, value: "2025-12" },
      { count: 1, value: "2026-04" },
    ]);
    expect((await json(t, "/api/v1/alpha/groupby/membership/end_date/count?by=year&end_date__gte=2026-03-15")).results).toEqual([{ count: 2, value: "2026" }]);
    expect((await json(t, "/api/v2/alpha/groupby/membership/end_date/count?by=day&membership_type=a")).results).toEqual([{ count: 1, value: "2026-03-01" }]);
    // A record's own timestamp: every person here was created this month.
    const month = new Date().toISOString().slice(0, 7);
    const created = (await json(t, "/api/v2/alpha/groupby/person/created/count?by=month")).results;
    expect(created).toHaveLength(1);
    expect(created[0].count).toBe(3);
    expect(created[0].value === month || created[0].value < month).toBe(true); // the clock may be injected
    expect(created[0].value).toMatch(/^\d{4}-\d{2}$/);
    // Not a date: grouped as it is.
    expect((await json(t, "/api/v2/alpha/groupby/person/gender/count?by=month")).results).toEqual([{ count: 2, value: "f" }, { count: 1, value: "m" }]);
  });

  run("distinct values, sorted, without null", async () => {
    const t = await setup();
    await people(t);
    expect(await json(t, "/api/v2/alpha/distinct/person/tags/")).toEqual({ field: "tags", count: 2, results: ["donor", "vip"] });
    expect(await json(t, "/api/v1/alpha/distinct/person/gender?last_name__ne=Smith")).toEqual({ field: "gender", count: 1, results: ["f"] });
    expect((await json(t, "/api/v2/alpha/distinct/payment/amount")).results).toEqual([5, 12.5]);
  });

  run("look-ups for pickers, and JSONP", async () => {
    const t = await setup();
    await people(t);
    const ada = await json(t, "/api/v2/alpha/lookup/person/?q=ada");
    expect(ada.map((e: any) => e.text)).toEqual(["Ada Lovelace", "Adam Smith"]);
    expect(ada[0].id).toMatch(/^[0-9a-f]{24}$/);
    expect(await json(t, "/api/v2/alpha/lookup/person?q=ADA&limit=1")).toHaveLength(1);
    expect(await json(t, "/api/v2/alpha/lookup/person?q=a&gender=m")).toEqual([expect.objectContaining({ text: "Adam Smith" })]);
    const jsonp = await get(t, "/api/v1/alpha/lookup/person?q=grace&callback=jQuery.cb_1");
    expect(jsonp.type).toContain("application/javascript");
    expect(jsonp.text).toMatch(/^\/\*\*\/jQuery\.cb_1\(\[\{"id":"[0-9a-f]{24}","text":"Grace Hopper"\}\]\);$/);
  });

  run("bad input, foreign flocks and self-service tokens", async () => {
    const t = await setup();
    await people(t);
    const cases: [string, number, string?][] = [
      ["/api/v2/alpha/groupby/person/gender/count?gender__bogus=1", 400],
      ["/api/v1/alpha/groupby/person/gender/count?gender__orlist=f", 400, "orlist"],
      ["/api/v2/alpha/groupby/person/bad%20field/count", 400, "not a field name"],
      ["/api/v2/alpha/groupby/widget/x/count", 404, "unknown resource type"],
      ["/api/v2/alpha/groupby/person/created/count?by=week", 400, "by must be one of year, month, day"],
      ["/api/v1/alpha/groupby/person/created/count?by=", 400, "by must be one of"],
      ["/api/v2/alpha/distinct/widget/x", 404],
      ["/api/v2/alpha/lookup/person?limit=0", 400, "limit must be a whole number"],
      ["/api/v2/alpha/lookup/person?limit=1000", 400],
      ["/api/v2/alpha/lookup/person?callback=alert(1)", 400, "callback"],
      ["/api/v2/alpha/lookup/person?q=" + "x".repeat(201), 400, "q must be at most"],
    ];
    for (const [path, status, says] of cases) {
      const res = await get(t, path);
      expect(res.status, path).toBe(status);
      if (says) expect(res.text, path).toContain(says);
    }
    for (const path of ["/api/v2/alpha/groupby/person/gender/count", "/api/v2/alpha/distinct/person/gender", "/api/v1/alpha/lookup/person?q=a"]) {
      expect((await get(t, path, KEYS.bob)).status, path).toBe(403);
      expect((await get(t, path, KEYS.member)).status, path).toBe(403);
      expect((await get(t, path.replace("/alpha/", "/nowhere/"), KEYS.admin)).status, path).toBe(404);
    }
  });
});
