/**
 * Issue 14, point 5: a record's history, the flock's, and provenance, built from the
 * change log (who made each write, through which application, what it changed) and the
 * data events; what the log no longer keeps (purged) is told from the records themselves.
 * On every adapter.
 */
import { runTask } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { KEYS, PASSWORD, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";

const SYNC = "Acme/Membership Sync/2.1";
const DESK = "Acme/Front Desk/7";

describe.each(EVERY_ADAPTER)("audit on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** A write through the API, as `key`, through `application` (none: unattributed). */
  const write = async (t: TestApp, method: string, path: string, key: string, application?: string, json?: unknown) => {
    const res = await t.call(method, path, { key, ...(json !== undefined ? { json } : {}), headers: application ? { application } : {} });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as any;
  };
  const brief = (results: any[]) => results.map((e) => [e.action, e.event ?? e.version, e.user, e.application, e.changed_fields]);

  /** Seeded through the engine (no caller): Ada, her membership, a rename, an organisation. */
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

  /** Two users through two applications (and one without) write Grace's record over five minutes. */
  async function twoWriters(t: TestApp) {
    const created = await write(t, "POST", "/api/v1/alpha/person/", KEYS.alice, SYNC, { first_name: "Grace", last_name: "Hopper" });
    const id = created.uri.split("/")[3] as string;
    const path = `/api/v1/alpha/person/${id}/`;
    t.clock.advance(60_000);
    await write(t, "PUT", path, KEYS.carol, DESK, { last_name: "Murray" });
    t.clock.advance(60_000);
    await write(t, "PATCH", `/api/v2/alpha/person/${id}`, KEYS.alice, undefined, { title: "Rear Admiral" });
    t.clock.advance(60_000);
    await write(t, "DELETE", path, KEYS.carol, DESK);
    t.clock.advance(60_000);
    await write(t, "POST", `${path}restore/`, KEYS.alice, SYNC);
    return { id, uri: `/alpha/person/${id}/` };
  }

  run("two users through two applications: each write with its user, application and changed fields, newest first", async () => {
    const t = await setup();
    const g = await twoWriters(t);
    const res = await get(t, `/audit/v2/alpha/person/${g.id}/audit`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uri: g.uri, count: 6, related_uris: [] });
    expect(brief(res.body.results)).toEqual([
      ["restored", 5, "alice", SYNC, []],
      ["deleted", 4, "carol", DESK, []],
      ["updated", 3, "alice", null, ["title", "formatted_name", "salutation"]],
      ["updated", 2, "carol", DESK, ["last_name", "formatted_name", "sortable_name"]],
      ["event", "contact_created", null, null, null],
      ["created", 1, "alice", SYNC, expect.arrayContaining(["first_name", "last_name", "formatted_name"])],
    ]);
    expect(res.body.results.map((e: any) => e.when)).toEqual([
      "2026-01-15T10:04:00.000000",
      "2026-01-15T10:03:00.000000",
      "2026-01-15T10:02:00.000000",
      "2026-01-15T10:01:00.000000",
      "2026-01-15T10:00:00.000000",
      "2026-01-15T10:00:00.000000",
    ]);
    const prov = await get(t, `/api/v2/alpha/person/${g.id}/provenance`);
    expect(prov.body).toMatchObject({ created_by: "alice", application: SYNC, version: 5 });

    // The flock's history shows the same writes (and the event), newest first, with who.
    const flock = await get(t, "/audit/v2/alpha/audit?resource=person");
    expect(flock.body.count).toBe(5);
    expect(flock.body.results.map((e: any) => [e.action, e.user, e.application])).toEqual([
      ["restored", "alice", SYNC],
      ["deleted", "carol", DESK],
      ["updated", "alice", null],
      ["updated", "carol", DESK],
      ["created", "alice", SYNC],
    ]);
    const all = await get(t, "/audit/v2/alpha/audit?limit=2&skip=4");
    expect([all.body.count, all.body.skip, all.body.results.map((e: any) => [e.action, e.event, e.user])]).toEqual([
      6,
      4,
      [
        ["event", "contact_created", "alice"],
        ["created", null, "alice"],
      ],
    ]);
  });

  run("record audit entries carry the hosted fields: date, message, uri, user, revertable, resource, clean_diff", async () => {
    const t = await setup();
    const g = await twoWriters(t);
    const res = await get(t, `/audit/v2/alpha/person/${g.id}/audit`);
    const [restored, deleted, titled, renamed, event, created] = res.body.results;
    for (const e of res.body.results) {
      expect(e).toMatchObject({ date: e.when, uri: g.uri, resource: "person", revertable: false });
      expect(typeof e.message).toBe("string");
    }
    expect(restored).toMatchObject({ message: "alice restored this person", user: "alice", clean_diff: [] });
    expect(deleted).toMatchObject({ message: "carol deleted this person", user: "carol", clean_diff: [] });
    expect(titled.message).toBe("alice changed title, formatted_name and salutation");
    expect(titled.clean_diff).toContainEqual({ field: "title", prev: null, value: "Rear Admiral", verb: "change" });
    // A later write changed formatted_name again: its value after this write is not known.
    expect(renamed.clean_diff).toEqual([
      { field: "last_name", prev: null, value: "Murray", verb: "change" },
      { field: "formatted_name", prev: null, value: null, verb: "change" },
      { field: "sortable_name", prev: null, value: "murray, grace", verb: "change" },
    ]);
    expect(event).toMatchObject({ message: "event contact_created", clean_diff: [], user: null });
    expect(created.message).toBe("alice created this person");
    expect(created.clean_diff).toContainEqual({ field: "first_name", prev: null, value: "Grace", verb: "add" });
    expect(created.clean_diff).toContainEqual({ field: "last_name", prev: null, value: null, verb: "add" });

    // A field removed by a write is a drop; the service's own writes read "The service".
    const note = await seed(t, "alpha", "journal", { title: "Minutes", body: "draft", tags: ["a", "b"] });
    await t.engine.update("alpha", "journal", note, { body: null });
    const noteLog = (await get(t, `/audit/v2/alpha/journal/${note}/audit`)).body.results;
    expect(noteLog[0]).toMatchObject({ message: "The service changed body", user: null, clean_diff: [{ field: "body", prev: null, value: null, verb: "drop" }] });
    expect(noteLog.at(-1).clean_diff).toContainEqual({ field: "tags", prev: null, value: "a, b", verb: "add" });
  });

  run("a bulk action's writes are its requester's; a member's own writes and logins name the member account", async () => {
    const t = await setup();
    const g = await twoWriters(t);
    t.clock.advance(60_000);
    const { task_id } = await write(t, "POST", "/api/v1/alpha/bulk_action/", KEYS.carol, DESK, {
      action: "add_tag",
      resource_type: "person",
      query: { last_name: "Murray" },
      value: "pioneer",
    });
    await runTask(t.engine, "alpha", task_id);
    const tagged = (await get(t, `/audit/v2/alpha/person/${g.id}/audit?limit=1`)).body.results;
    expect(brief(tagged)).toEqual([["updated", 6, "carol", DESK, ["tags"]]]);
    expect((await get(t, `/audit/v2/alpha/core_event/${task_id}/audit?limit=1`)).body.results[0]).toMatchObject({ user: "carol", application: DESK });

    // A member cancels their own reservation through the self-service path.
    const person = await seed(t, "alpha", "person", { first_name: "Member", email: ["member@example.org"] });
    const booking = await seed(t, "alpha", "reservation", { buyer_ref: `/alpha/person/${person}/`, start_datetime: "2026-03-01T18:30:00" });
    await write(t, "DELETE", `/selfservice/v2/alpha/reservation/${booking}/`, KEYS.member, SYNC);
    const cancelled = (await get(t, `/audit/v2/alpha/reservation/${booking}/audit`)).body.results;
    // The record's history names the member by their person (spec v2-gateway section 0), the flock's by account.
    expect(cancelled.find((e: any) => e.action === "updated")).toMatchObject({ user: `/alpha/person/${person}/`, application: SYNC, message: expect.stringMatching(/^Member changed /) });

    // Logins are recorded as data events: a good one names the account that logged in, a failed one no one.
    const login = (password: string) => t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password }, headers: { application: DESK } });
    expect((await login("wrong password")).status).toBe(403);
    expect((await login(PASSWORD)).status).toBe(201);
    const logins = (await get(t, "/audit/v2/alpha/audit?limit=2")).body.results;
    expect(logins.map((e: any) => [e.event, e.user, e.application])).toEqual([
      ["login", "alpha member@example.org", DESK],
      ["failed_login", null, DESK],
    ]);
  });

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
      // Written through the engine with no caller: logged, with no user or application.
      expect(res.body.results[0]).toMatchObject({ version: 2, user: null, application: null, changed_fields: ["last_name", "formatted_name", "sortable_name"] });
    }
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?limit=1`)).body.results).toHaveLength(1);
    t.clock.advance(3 * 86_400_000);
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?since_days=1`)).body.count).toBe(0);
    expect((await get(t, `/audit/v2/alpha/person/${w.ada}/audit?since_days=30`)).body.count).toBe(3);
  });

  run("after the change log is purged: a record's creation and latest write come from the record, the flock's older part from its data events", async () => {
    const t = await setup();
    const w = await story(t);
    t.clock.advance(60_000);
    await write(t, "PUT", `/api/v1/alpha/organisation/${w.org}/`, KEYS.alice, SYNC, { name: "Acme Ltd" });
    // Purge everything before the last write (what the scheduler does after changes.retentionDays).
    expect(await t.storage.purgeChanges("2026-01-15T10:04:00.000000")).toBeGreaterThan(0);

    const ada = await get(t, `/audit/v2/alpha/person/${w.ada}/audit`);
    expect(brief(ada.body.results)).toEqual([
      ["updated", 2, null, null, null],
      ["event", "contact_created", null, null, null],
      ["created", null, null, null, null],
    ]);
    const org = await get(t, `/audit/v2/alpha/organisation/${w.org}/audit`);
    expect(brief(org.body.results)).toEqual([
      ["updated", 2, "alice", SYNC, expect.arrayContaining(["name"])],
      ["event", "contact_created", null, null, null],
      ["created", null, null, null, null],
    ]);
    expect((await get(t, `/api/v1/alpha/organisation/${w.org}/provenance`)).body).toMatchObject({ created_by: null, application: null });

    // The kept write first, then the data events recorded before it.
    const flock = await get(t, "/audit/v2/alpha/audit");
    expect(flock.body.results.map((e: any) => [e.action, e.event, e.user])).toEqual([
      ["updated", null, "alice"],
      ["event", "contact_created", null],
      ["event", "contact_created", null],
    ]);
    expect(flock.body.count).toBe(3);
    expect((await get(t, "/audit/v2/alpha/audit?skip=1&limit=1")).body.results.map((e: any) => e.uri)).toEqual([`/alpha/organisation/${w.org}/`]);
    expect((await get(t, "/audit/v2/alpha/audit?resource=person")).body.results.map((e: any) => [e.event, e.uri])).toEqual([["contact_created", w.uri]]);
  });

  run("the flock's history: its logged writes and events, newest first, paged and filtered", async () => {
    const t = await setup();
    const w = await story(t);
    const all = await get(t, "/audit/v2/alpha/audit");
    expect(all.body.count).toBe(6);
    expect(all.body.results.map((e: any) => [e.action, e.event, e.uri])).toEqual([
      ["event", "contact_created", `/alpha/organisation/${w.org}/`],
      ["created", null, `/alpha/organisation/${w.org}/`],
      ["updated", null, w.uri],
      ["created", null, `/alpha/member/${w.member}/`],
      ["event", "contact_created", w.uri],
      ["created", null, w.uri],
    ]);
    expect((await get(t, `/audit/v2/alpha/audit?limit=1&skip=${all.body.count - 1}`)).body.results.map((e: any) => [e.action, e.uri])).toEqual([["created", w.uri]]);
    expect((await get(t, "/audit/v2/alpha/audit?resource=organisation")).body.results.map((e: any) => e.action)).toEqual(["created"]);
    expect((await get(t, "/audit/v2/alpha/audit?from=2026-01-15T10:02:00&to=2026-01-15T10:03:00")).body.results.map((e: any) => [e.action, e.uri])).toEqual([["updated", w.uri]]);
    expect((await get(t, "/audit/v2/alpha/audit?to=2026-01-15")).body.count).toBe(0);
    expect((await get(t, `/audit/v2/alpha/audit?skip=${all.body.count}`)).body.results).toEqual([]);
  });

  run("provenance: created when and by whom, the creating event, where it came from", async () => {
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

  run("bad input is a 400 in the contract's shape; foreign flocks and member tokens 403, unknown flocks 404, no key 401", async () => {
    const t = await setup();
    const w = await story(t);
    const cases: [string, number, string?][] = [
      [`/audit/v2/alpha/person/${w.ada}/audit?limit=0`, 400, "limit"],
      [`/audit/v2/alpha/person/${w.ada}/audit?limit=1001`, 400, "limit must be a whole number from 1 to 1000"],
      [`/audit/v2/alpha/person/${w.ada}/audit?limit=ten`, 400, "limit"],
      [`/audit/v2/alpha/person/${w.ada}/audit?since_days=x`, 400, "since_days"],
      [`/audit/v2/alpha/person/${w.ada}/audit?since_days=0`, 400, "since_days"],
      [`/audit/v2/alpha/person/${w.ada}/audit?since_days=-3`, 400, "since_days"],
      ["/audit/v2/alpha/audit?limit=5000", 400, "limit"],
      ["/audit/v2/alpha/audit?skip=-1", 400, "skip"],
      ["/audit/v2/alpha/audit?from=yesterday", 400, "from must be a date"],
      ["/audit/v2/alpha/audit?from=2026-02-30", 400, "from must be a date"],
      ["/audit/v2/alpha/audit?to=2026-01-15T25:00:00", 400, "to must be a date"],
      ["/audit/v2/alpha/audit?from=2026-01-15T10:99:00", 400, "from must be a date"],
      ["/audit/v2/alpha/audit?from=2026-01-15T10:00:60", 400, "from must be a date"],
      ["/audit/v2/alpha/audit?from=2026-01-16&to=2026-01-15", 400, "must be before to"],
      ["/audit/v2/alpha/audit?resource=Bad-Type", 400, "resource"],
      ["/audit/v2/alpha/audit?resource=widget", 404],
      [`/audit/v2/alpha/person/${"0".repeat(24)}/audit`, 404],
      [`/audit/v2/alpha/widget/${w.ada}/audit`, 404],
      [`/api/v2/alpha/person/${"0".repeat(24)}/provenance`, 404],
    ];
    for (const [path, status, says] of cases) {
      const res = await get(t, path);
      expect(res.status, path).toBe(status);
      expect(Object.keys(res.body).sort(), path).toEqual(["description", "error", "title", "type"]);
      if (says) expect(JSON.stringify(res.body), path).toContain(says);
    }
    expect(Object.keys((await get(t, `/api/v1/alpha/person/${"0".repeat(24)}/provenance`)).body).sort()).toEqual(["error", "error_detail"]);
    for (const path of [`/audit/v2/alpha/person/${w.ada}/audit`, "/audit/v2/alpha/audit", `/api/v1/alpha/person/${w.ada}/provenance`]) {
      expect((await get(t, path, KEYS.bob)).status, path).toBe(403);
      expect((await get(t, path, KEYS.member)).status, path).toBe(403);
      expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status, path).toBe(404);
      expect((await t.call("GET", path)).status, path).toBe(401);
    }
  });
});
