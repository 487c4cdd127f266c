/**
 * The segments gateway (spec v2-gateway section 3) on every storage adapter: `find` and
 * `segment/{uid}/count` over `segment` records, counts agreeing with the generic list's
 * `total` for the same filter, the four segment types, bad rules, auth and deleted records.
 */
import { describe, expect, it, vi } from "vitest";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";
import { createSegment, seedSegmentPeople } from "./helpers/segments.js";

const json = async (res: Response) => (await res.json()) as Record<string, any>;

/** The five people, a deleted sixth and an organisation of the same source. */
async function seedPeople(t: TestApp) {
  const people = await seedSegmentPeople(t);
  const gone = (await t.engine.create("alpha", "person", { first_name: "Fay", last_name: "Smith", source: "web" })).id;
  await t.engine.delete("alpha", "person", gone);
  const org = (await t.engine.create("alpha", "organisation", { name: "Smith & Co", source: "web" })).id;
  return { people, gone, org };
}

const seg = createSegment;

describe.each(EVERY_ADAPTER)("segments gateway on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("refuses strangers before reading any record (positive control first)", async () => {
    const t = await setup();
    const id = await seg(t, { name: "Web", resource_type: "person", rules: { source: "web" } });
    const paths = ["/segments/v2/alpha/find?name=we", `/segments/v2/alpha/segment/${id}/count`];
    for (const p of paths) expect((await t.call("GET", p, { key: KEYS.alice })).status).toBe(200);
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "listRecords")];
    for (const p of paths) {
      for (const [key, status] of [[undefined, 401], [KEYS.bob, 403], [KEYS.member, 403]] as const) {
        const res = await t.call("GET", p, { key });
        expect(res.status).toBe(status);
        expect(await json(res)).toHaveProperty("title");
      }
    }
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
  });

  run("count agrees with the generic list's total for the same filter, in both rule forms", async () => {
    const t = await setup();
    await seedPeople(t);
    const cases: [Record<string, unknown> | unknown[], string][] = [
      [{ source: "web" }, "source=web"],
      [{ last_name__startswithi: "sm", mode: "OR", source: "paper", page_size: 1 }, "last_name__startswithi=sm&mode=OR&source=paper"],
      [[{ field: "source", operator: "equals", value: "web" }, { field: "last_name", operator: "starts_with", value: "Sm" }], "source=web&last_name__startswith=Sm"],
      [[{ field: "source", operator: "or_list", value: ["web", "paper"] }], "source__orlist=web,paper"],
      [[{ field: "last_name", operator: "none_of", value: "Smith,Jones" }], "last_name__none=Smith,Jones"],
    ];
    for (const [rules, query] of cases) {
      const id = await seg(t, { name: `s ${query}`, description: "about", resource_type: "person", rules });
      const res = await t.call("GET", `/segments/v2/alpha/segment/${id}/count/`, { key: KEYS.alice });
      expect(res.status, query).toBe(200);
      const total = (await json(await t.call("GET", `/api/v2/alpha/person/?${query}`, { key: KEYS.alice }))).total;
      expect(await json(res), query).toEqual({ count: total, description: "about", segment: `/alpha/segment/${id}/` });
    }
    const all = await seg(t, { name: "everyone", resource_type: "person" });
    expect((await json(await t.call("GET", `/segments/v2/alpha/segment/${all}/count`, { key: KEYS.alice }))).count).toBe(5);
  });

  run("static, hybrid, auxiliary and contact segments; excludes win; deleted and foreign URIs are not members", async () => {
    const t = await setup();
    const { people, gone, org } = await seedPeople(t);
    const p = (i: number) => `/alpha/person/${people[i]}/`;
    const count = async (data: Record<string, unknown>) => (await json(await t.call("GET", `/segments/v2/alpha/segment/${await seg(t, { name: "x", ...data })}/count`, { key: KEYS.alice }))).count;
    expect(await count({ resource_type: "person", segment_type: "static", uris_include: [p(0), p(3), `/alpha/person/${gone}/`, `/alpha/organisation/${org}/`, `/beta/person/${people[1]}/`, p(3)], rules: { source: "web" } })).toBe(2);
    expect(await count({ resource_type: "person", segment_type: "static", uris_include: [p(0), p(3)], uris_exclude: [p(3)] })).toBe(1);
    // web: 0,1,2; plus 3 listed; minus 1 (a rule match) and 4 (not a member anyway).
    expect(await count({ resource_type: "person", segment_type: "hybrid", rules: { source: "web" }, uris_include: [p(3), p(0)], uris_exclude: [p(1), p(4)] })).toBe(3);
    expect(await count({ resource_type: "person", segment_type: "dynamic", rules: { source: "web" }, uris_exclude: [p(0)] })).toBe(2);
    expect(await count({ resource_type: "person", segment_type: "auxiliary", rules: { source: "web" } })).toBe(0);
    expect(await count({ resource_type: "contact", rules: { source: "web" } })).toBe(4);
  });

  run("a rule the filter code refuses is a 400 naming it; the segment stays readable and nothing is written", async () => {
    const t = await setup();
    await seedPeople(t);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ resource_type: "person", rules: { source__bogus: "web" } }, /bogus/],
      [{ resource_type: "person", rules: [{ field: "source", operator: "like", value: "web" }] }, /unknown operator "like"/],
      [{ resource_type: "person", rules: { not_a_field: "x" } }, /not_a_field/],
      [{ resource_type: "person", rules: { source: { nested: true } } }, /source/],
      [{ resource_type: "person", segment_type: "weird" }, /segment_type/],
      [{ rules: {} }, /resource_type/],
      [{ resource_type: "spaceship" }, /spaceship/],
    ];
    for (const [data, why] of bad) {
      const id = await seg(t, { name: "bad", ...data });
      const before = await t.storage.getRecord("alpha", "segment", id);
      const res = await t.call("GET", `/segments/v2/alpha/segment/${id}/count`, { key: KEYS.alice });
      expect(res.status, JSON.stringify(data)).toBe(400);
      const body = await json(res);
      expect(body.description, JSON.stringify(data)).toMatch(why);
      expect(body.description).toContain(`/alpha/segment/${id}/`);
      expect(await t.storage.getRecord("alpha", "segment", id)).toEqual(before);
      expect((await t.call("GET", `/api/v2/alpha/segment/${id}/`, { key: KEYS.alice })).status).toBe(200);
    }
  });

  run("count of a deleted, unknown or non-segment id is 404", async () => {
    const t = await setup();
    const { people } = await seedPeople(t);
    const id = await seg(t, { name: "gone", resource_type: "person" });
    await t.engine.delete("alpha", "segment", id);
    for (const uid of [id, people[0]!, "f".repeat(24), "zz"]) {
      const res = await t.call("GET", `/segments/v2/alpha/segment/${uid}/count`, { key: KEYS.alice });
      expect(res.status).toBe(404);
      expect(await json(res)).toHaveProperty("description");
    }
  });

  run("find: active, live segments whose name contains the text (case ignored), by name, paged", async () => {
    const t = await setup();
    const ids = {
      b: await seg(t, { name: "Web signups", resource_type: "person", rules: { source: "web" }, view_context: "home", tags: ["x"] }),
      a: await seg(t, { name: "Alumni WEB", resource_type: "person", segment_type: "static", system_segment: true }),
      off: await seg(t, { name: "Old web", resource_type: "person", active: false }),
      other: await seg(t, { name: "Donors", resource_type: "person" }),
      gone: await seg(t, { name: "Web gone", resource_type: "person" }),
    };
    await t.engine.delete("alpha", "segment", ids.gone);
    const body = await json(await t.call("GET", "/segments/v2/alpha/find?name=wEb", { key: KEYS.alice }));
    expect(body).toMatchObject({ page: 1, page_size: 25, total: 2, pages: 1 });
    expect(body.segments.map((s: any) => s.name)).toEqual(["Alumni WEB", "Web signups"]);
    expect(body.segments[1]).toMatchObject({
      uid: ids.b,
      uri: `/alpha/segment/${ids.b}/`,
      resource_type: "person",
      segment_type: "dynamic",
      rules: { source: "web" },
      uris_include: [],
      uris_exclude: [],
      active: true,
      view_context: ["home"],
      parent_segment: null,
      tags: ["x"],
      system_segment: false,
      email_marketing_sync: false,
      record_state: "updated",
      user_interface: { can_create_segment: true, can_edit_segment: true, can_delete_segment: true, can_restore_segment: true, policy_name: null },
    });
    expect(body.segments[0]).toMatchObject({ rules: {}, user_interface: { can_edit_segment: false, can_delete_segment: false } });
    const page2 = await json(await t.call("GET", "/segments/v2/alpha/find?name=web&page_size=1&page=2", { key: KEYS.alice }));
    expect(page2.segments.map((s: any) => s.name)).toEqual(["Web signups"]);
    expect(page2).toMatchObject({ total: 2, pages: 2 });
    for (const q of ["", "?name=", "?name=%20", "?name=web&page_size=abc", "?name=web&page_size=1501"]) {
      const res = await t.call("GET", `/segments/v2/alpha/find${q}`, { key: KEYS.alice });
      expect(res.status, q).toBe(400);
      expect(await json(res)).toHaveProperty("title");
    }
  });
});
