/**
 * The list's `sort` parameter over HTTP on every adapter: the whole list ordered across
 * pages (a data field both ways, newest first), on v1 and v2, and every bad value a 400 in
 * the surface's error shape.
 */
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

const key = KEYS.alice;
const NAMES = ["lovelace", "Babbage", "Hopper", "turing", "Curie", "Noether", "ada"];

describe.each(EVERY_ADAPTER)("sort on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  const seeded = async () => {
    const t = await setup();
    for (const [i, last_name] of NAMES.entries()) {
      await t.engine.create("alpha", "person", { first_name: `P${i}`, last_name });
      t.clock.advance(60_000);
    }
    await t.engine.create("alpha", "person", { first_name: "No surname" });
    return t;
  };
  const lastNames = async (t: Awaited<ReturnType<typeof seeded>>, path: string): Promise<(string | null)[]> => {
    const out: (string | null)[] = [];
    for (let page = 1; ; page++) {
      const res = await t.call("GET", `${path}&page_size=3&page=${page}`, { key });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { data: { last_name: string | null } }[]; pages: number; total: number };
      expect(body.total).toBe(NAMES.length + 1);
      out.push(...body.results.map((r) => r.data.last_name));
      if (page >= body.pages) return out;
    }
  };

  run("orders the whole list by a field, case ignored, across pages, empty values last", async () => {
    const t = await seeded();
    const sorted = [...NAMES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(await lastNames(t, "/api/v1/alpha/person/?sort=last_name")).toEqual([...sorted, null]);
    expect(await lastNames(t, "/api/v2/alpha/person/?sort=-last_name")).toEqual([...sorted.reverse(), null]);
  });

  run("newest first with sort=-created, with a filter", async () => {
    const t = await seeded();
    expect(await lastNames(t, "/api/v1/alpha/person/?sort=-created")).toEqual([null, ...[...NAMES].reverse()]);
    const res = await t.call("GET", "/api/v1/alpha/person/?last_name__startswithi=a&mode=OR&last_name__startswithi=h&sort=-created", { key });
    const body = (await res.json()) as { results: { data: { last_name: string } }[] };
    expect(body.results.map((r) => r.data.last_name)).toEqual(["ada", "Hopper"]);
  });

  run.each([
    ["", "bad sort"],
    ["-", "bad sort"],
    ["last_name,first_name", "bad sort"],
    ["last name", "bad sort"],
    ["-shoe_size", "bad sort"],
  ])("sort=%j is a 400 in both surfaces' shapes", async (value, error) => {
    const t = await setup();
    const v1 = await t.call("GET", `/api/v1/alpha/person/?sort=${encodeURIComponent(value)}`, { key });
    expect(v1.status).toBe(400);
    const body = (await v1.json()) as { error: string; error_detail: string };
    expect(body.error).toBe(error);
    expect(body.error_detail).toContain(JSON.stringify(value));
    const v2 = await t.call("GET", `/api/v2/alpha/person/?sort=${encodeURIComponent(value)}`, { key });
    expect(v2.status).toBe(400);
    expect(await v2.json()).toMatchObject({ title: error });
  });

  run("an open type sorts by any field; a field no record has keeps creation order", async () => {
    const t = await setup();
    for (const n of [3, 1, 2]) await t.engine.create("alpha", "journal", { title: `J${n}`, n });
    const titles = async (qs: string) => {
      const res = await t.call("GET", `/api/v1/alpha/journal/?${qs}`, { key });
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: { data: { title: string } }[] }).results.map((r) => r.data.title);
    };
    expect(await titles("sort=n")).toEqual(["J1", "J2", "J3"]);
    expect(await titles("sort=-n")).toEqual(["J3", "J2", "J1"]);
    expect(await titles("sort=never_set")).toEqual(["J3", "J1", "J2"]);
  });
});
