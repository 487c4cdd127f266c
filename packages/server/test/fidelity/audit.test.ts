/**
 * Issue 14, point 5: a record's history, the flock's, and provenance, from what the engine
 * keeps (creation, latest write, deletion, the data events about the record).
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";

describe.each(EVERY_ADAPTER)("audit on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, body: (await res.json()) as any };
  };

  async function story(t: TestApp) {
    const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace", source: "import 2026-01", legacy_uid: "L-7" });
    const uri = `/alpha/person/${ada}/`;
    t.clock.advance(60_000);
    const member = await seed(t, "alpha", "member", { member: uri, membership_number: "1" });
    t.clock.advance(60_000);
    await t.engine.update("alpha", "person", ada, { last_name: "King" });
    t.clock.advance(60_000);
    const org = await seed(t, "alpha", "organisation", { name: "Acme" });
    return { ada, uri, member, org };
  }

  run("a record's history: newest first, with its events and the records that reference it", async () => {
    const t = await setup();
    const w = await story(t);
    for (const path of [`/audit/v2/alpha/person/${w.ada}/audit`, `/audit/v2/alpha/person/${w.ada}/audit/`]) {
      const res = await get(t, path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ uri: w.uri, count: 3, related_uris: [`/alpha/member/${w.member}/`] });
      expect(res.body.results.map((e: any) => [e.action, e.event, e.when])).toEqual([
        ["updated", null, "2026-01-15T10:02:00.000000"],
        ["event", "contact_created", "2026-01-15T10:00:00.000000"],
        ["created", null, "2026-01-15T10:00:00.000000"],
      ]);
      expect(res.body.results[0]).toMatchObject({ version: 2, user: null, application: null, changed_fields: null });
    }
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?limit=1`)).body.results).toHaveLength(1);
    t.clock.advance(3 * 86_400_000);
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?since_days=1`)).body.count).toBe(0);
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?since_days=30`)).body.count).toBe(3);
  });

  run("the flock's history: its data events, newest first, paged and filtered", async () => {
    const t = await setup();
    const w = await story(t);
    const all = await get(t, "/audit/v2/alpha/audit");
    expect(all.body.count).toBe(2);
    expect(all.body.results.map((e: any) => e.uri)).toEqual([`/alpha/organisation/${w.org}/`, w.uri]);
    expect((await get(t, "/audit/v2/alpha/audit?limit=1&skip=1")).body.results.map((e: any) => e.uri)).toEqual([w.uri]);
    expect((await get(t, "/audit/v2/alpha/audit?resource=organisation")).body.results.map((e: any) => e.event)).toEqual(["contact_created"]);
    expect((await get(t, "/audit/v2/alpha/audit?from=2026-01-15T10:01:00")).body.count).toBe(1);
    expect((await get(t, "/audit/v2/alpha/audit?to=2026-01-15T10:01:00")).body.count).toBe(1);
    expect((await get(t, "/audit/v2/alpha/audit?skip=5")).body.results).toEqual([]);
  });

  run("provenance: created when, the creating event, where it came from", async () => {
    const t = await setup();
    const w = await story(t);
    for (const prefix of ["/api/v1", "/api/v2"]) {
      const res = await get(t, `${prefix}/alpha/person/${w.ada}/provenance/`);
      expect(res.body).toMatchObject({
        uri: w.uri,
        created: "2026-01-15T10:00:00.000000",
        last_updated: "2026-01-15T10:02:00.000000",
        version: 2,
        source: "import 2026-01",
        legacy_uid: "L-7",
        external_ids: [],
        created_by: null,
        application: null,
      });
      expect(res.body.created_event).toMatch(/^\/alpha\/data_event\/[0-9a-f]{24}\/$/);
    }
    expect((await get(t, `/api/v2/alpha/member/${w.member}/provenance`)).body.created_event).toBeNull();
  });

  run("bad input, foreign flocks and self-service tokens", async () => {
    const t = await setup();
    const w = await story(t);
    const cases: [string, number, string?][] = [
      [`/audit/v2/alpha/person/${w.ada}/audit?limit=0`, 400, "limit"],
      [`/audit/v2/alpha/person/${w.ada}/audit?since_days=x`, 400, "since_days"],
      ["/audit/v2/alpha/audit?from=yesterday", 400, "from must be a date"],
      ["/audit/v2/alpha/audit?resource=Bad-Type", 400, "resource"],
      ["/audit/v2/alpha/audit?resource=widget", 404],
      [`/audit/v2/alpha/person/${"0".repeat(24)}/audit`, 404],
      [`/audit/v2/alpha/widget/${w.ada}/audit`, 404],
      [`/api/v2/alpha/person/${"0".repeat(24)}/provenance`, 404],
    ];
    for (const [path, status, says] of cases) {
      const res = await get(t, path);
      expect(res.status, path).toBe(status);
      if (says) expect(JSON.stringify(res.body), path).toContain(says);
    }
    expect(Object.keys((await get(t, "/audit/v2/alpha/audit?limit=0")).body).sort()).toEqual(["description", "title"]);
    for (const path of [`/audit/v2/alpha/person/${w.ada}/audit`, "/audit/v2/alpha/audit", `/api/v1/alpha/person/${w.ada}/provenance`]) {
      expect((await get(t, path, KEYS.bob)).status, path).toBe(403);
      expect((await get(t, path, KEYS.member)).status, path).toBe(403);
      expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status, path).toBe(404);
    }
  });
});
