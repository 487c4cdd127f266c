/**
 * Issue 14, points 1, 2 and 8: a contact's sub-resources, the membership status by email,
 * the read-only `contact` type and its `mapreduce` list, on every adapter.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

/** Ada (person, two memberships: one active, one lapsed), Acme (organisation, one active), Bob (none). */
async function world(t: TestApp) {
  const ada = await seed(t, "alpha", "person", {
    first_name: "Ada",
    last_name: "Lovelace",
    title: "Countess",
    date_of_birth: "1815-12-10",
    email: ["ada@example.org;home", "ada@work.example;work__primary"],
    telephone: ["0123;home"],
    address_lines: ["12 St James's Square"],
    postal_code: "SW1Y 4JH",
    country: "United Kingdom",
  });
  const adaUri = `/alpha/person/${ada}/`;
  const plan = await seed(t, "alpha", "membership_type", { name: "Gold" });
  const planUri = `/alpha/membership_type/${plan}/`;
  const old = await seed(t, "alpha", "member", { member: adaUri, membership_type: planUri, membership_number: "0001", start_date: "2024-01-01", end_date: "2024-12-31", membership_record_status: "lapsed" });
  const current = await seed(t, "alpha", "member", { member: adaUri, membership_type: planUri, membership_number: "0042", start_date: "2026-01-01", end_date: "2026-12-31", membership_record_status: "active", linked_members: [] });
  const acme = await seed(t, "alpha", "organisation", { name: "Acme", email: ["info@acme.example;work"] });
  const acmeUri = `/alpha/organisation/${acme}/`;
  await seed(t, "alpha", "membership", { member: acmeUri, membership_number: "C1", start_date: "2025-06-01" });
  const bob = await seed(t, "alpha", "person", { first_name: "Bob", last_name: "Byron", email: ["bob@example.org"] });
  return { ada, adaUri, planUri, old, current, acme, acmeUri, bob };
}

describe.each(EVERY_ADAPTER)("contact read models on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  run("membership/all and membership/summary, newest first, on both surfaces and slashes", async () => {
    const t = await setup();
    const w = await world(t);
    for (const prefix of ["/api/v1", "/api/v2"]) {
      for (const slash of ["", "/"]) {
        const all = await get(t, `${prefix}${w.adaUri}membership/all${slash}`);
        expect(all.status).toBe(200);
        expect(all.body).toMatchObject({ contact_uri: w.adaUri, count: 2 });
        expect(all.body.memberships.map((m: any) => m.membership_number)).toEqual(["0042", "0001"]);
        const entry = all.body.memberships[0];
        // Every field of the hosted shape (spec v2-gateway section 0): unset ones null, lists [].
        expect(entry).toEqual({
          uid: w.current,
          uri: `/alpha/member/${w.current}/`,
          display_value: "Gold 0042",
          created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/),
          last_updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          record_state: "updated",
          member: w.adaUri,
          admin_contact: null,
          billing_contact: null,
          linked_members: [],
          max_linked_members: null,
          membership_number: "0042",
          membership_type: w.planUri,
          membership_plan_type: null,
          membership_record_status: "active",
          start_date: "2026-01-01",
          end_date: "2026-12-31",
          cancellation_date: null,
          lapse_reason: null,
          advise_lapse: null,
          auto_renew: null,
          has_renewed: null,
          next_membership_type: null,
          next_payment_plan: null,
          payment_plan: null,
          period: null,
          amount: null,
          currency: null,
          tax: null,
          paid: null,
          payment_date: null,
          payment_method: null,
          payment_reference: null,
          gift_aid: null,
          externally_managed: null,
          mute_communications: null,
          tags: [],
          user_interface: null,
        });
      }
    }
    // Held fields are answered as stored; amount as a number; processor-named fields are not emitted.
    await t.engine.update("alpha", "member", w.current, { amount: "30.50", currency: "GBP", tags: "gift", user_interface: { colour: "gold" }, payment_method: "card", gift_aid: true, stripe_subscription_id: "sub_1", xero_account_code: "200" });
    const held = (await get(t, `/api/v2${w.adaUri}membership/all`)).body.memberships[0];
    expect(held).toMatchObject({ amount: 30.5, currency: "GBP", tags: ["gift"], user_interface: { colour: "gold" }, payment_method: "card", gift_aid: true });
    expect(Object.keys(held).filter((k) => /stripe|xero/.test(k))).toEqual([]);
    const summary = await get(t, `/api/v2${w.adaUri}membership/summary`);
    expect(summary.body.memberships[1]).toEqual({
      uri: `/alpha/member/${w.old}/`,
      display_value: "Gold 0001",
      membership_record_status: "lapsed",
      start_date: "2024-01-01",
      end_date: "2024-12-31",
    });
    const org = await get(t, `/api/v1${w.acmeUri}membership/all`);
    expect(org.body).toMatchObject({ count: 1, memberships: [{ membership_number: "C1" }] });
    // A deleted membership is left out.
    await t.engine.delete("alpha", "member", w.old);
    expect((await get(t, `/api/v1${w.adaUri}membership/all`)).body.count).toBe(1);
  });

  run("communications/detail, personal/detail and summary", async () => {
    const t = await setup();
    const w = await world(t);
    const comms = await get(t, `/api/v1${w.adaUri}communications/detail/`);
    expect(comms.body).toMatchObject({
      contact_uri: w.adaUri,
      email: ["ada@example.org;home", "ada@work.example;work__primary"],
      primary_email: "ada@work.example",
      telephone: ["0123;home"],
      primary_telephone: "0123",
      address_lines: ["12 St James's Square"],
      postal_code: "SW1Y 4JH",
      country: "United Kingdom",
      address: { postal_code: "SW1Y 4JH", locality: null },
    });
    const personal = await get(t, `/api/v2${w.adaUri}personal/detail`);
    expect(personal.body).toMatchObject({ title: "Countess", first_name: "Ada", last_name: "Lovelace", date_of_birth: "1815-12-10", gender: null, formatted_name: "Countess Ada Lovelace" });
    expect((await get(t, `/api/v2${w.acmeUri}personal/detail`)).body).toMatchObject({ name: "Acme", display_value: "Acme" });
    t.clock.set(new Date("2026-05-01T12:00:00Z"));
    const summary = await get(t, `/api/v1${w.adaUri}summary`);
    expect(summary.body).toEqual({
      contact_uri: w.adaUri,
      resource: "person",
      display_value: "Countess Ada Lovelace",
      state: "updated",
      primary_email: "ada@work.example",
      primary_telephone: "0123",
      current_membership: { uri: `/alpha/member/${w.current}/`, display_value: "Gold 0042", membership_record_status: "active", start_date: "2026-01-01", end_date: "2026-12-31" },
      active_membership_count: 1,
    });
    const bob = await get(t, `/api/v1/alpha/person/${w.bob}/summary`);
    expect(bob.body).toMatchObject({ current_membership: null, active_membership_count: 0, primary_telephone: null });
    // Through the contact type too.
    expect((await get(t, `/api/v2/alpha/contact/${w.acme}/summary`)).body).toMatchObject({ resource: "organisation", display_value: "Acme" });
  });

  run("member/{uid}/detail expands the member and its plan", async () => {
    const t = await setup();
    const w = await world(t);
    const detail = await get(t, `/api/v2/alpha/member/${w.current}/detail/`);
    expect(detail.status).toBe(200);
    expect(detail.body.display_value).toBe("Gold 0042");
    expect(detail.body.data.member).toMatchObject({ ref: w.adaUri, display_value: "Countess Ada Lovelace", resource: "person", data: { first_name: "Ada" } });
    expect(detail.body.data.membership_type).toMatchObject({ ref: w.planUri, display_value: "Gold", data: { name: "Gold" } });
    expect((await get(t, `/api/v2/alpha/member/${"0".repeat(24)}/detail`)).status).toBe(404);
  });

  run("user/membership?email= answers the status of the person with that address", async () => {
    const t = await setup();
    const w = await world(t);
    t.clock.set(new Date("2026-05-01T12:00:00Z"));
    const status = await get(t, "/api/v1/alpha/user/membership/?email=ADA@example.org");
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      person: w.adaUri,
      display_value: "Countess Ada Lovelace",
      is_member: true,
      active_memberships_for_display: ["Gold 0042"],
      membership_numbers: ["0042"],
      membership_record_status: "active",
      member_since: "2024-01-01",
      member_till: "2026-12-31",
      member_till_plus_grace: "2027-01-30",
    });
    expect((await get(t, "/api/v2/alpha/user/membership?email=ada@work.example&realtime=true")).body.person).toBe(w.adaUri);
    const bob = await get(t, "/api/v1/alpha/user/membership?email=bob@example.org");
    expect(bob.body).toMatchObject({ is_member: false, active_memberships_for_display: [], member_since: null, member_till: null, member_till_plus_grace: null });
    const none = await get(t, "/api/v1/alpha/user/membership?email=nobody@example.org");
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: "person not found" });
  });

  run("contact lists persons then organisations, pages across both, gets either, refuses writes", async () => {
    const t = await setup();
    const w = await world(t);
    const all = await get(t, "/api/v1/alpha/contact/");
    expect(all.body).toMatchObject({ total: 3, pages: 1 });
    expect(all.body.results.map((r: any) => r.display_value)).toEqual(["Countess Ada Lovelace", "Bob Byron", "Acme"]);
    // Page 2 of size 2 holds the last person's successor: the organisation.
    const p2 = await get(t, "/api/v2/alpha/contact?page=2&page_size=2");
    expect(p2.body).toMatchObject({ total: 3, page: 2, pages: 2 });
    expect(p2.body.results.map((r: any) => r.resource)).toEqual(["organisation"]);
    const p1 = await get(t, "/api/v2/alpha/contact?page=1&page_size=2");
    expect(p1.body.results.map((r: any) => r.resource)).toEqual(["person", "person"]);
    const filtered = await get(t, "/api/v1/alpha/contact/?email__startswithi=INFO@");
    expect(filtered.body.results.map((r: any) => r.uri)).toEqual([w.acmeUri]);
    expect((await get(t, `/api/v1/alpha/contact/${w.acme}/`)).body).toMatchObject({ resource: "organisation", uri: w.acmeUri });
    expect((await get(t, `/api/v1/alpha/contact/${w.ada}`)).body).toMatchObject({ resource: "person" });
    const before = await snapshot(t.storage);
    for (const [method, path] of [["POST", "/api/v1/alpha/contact/"], ["PUT", `/api/v1/alpha/contact/${w.ada}/`], ["PATCH", `/api/v2/alpha/contact/${w.ada}`], ["DELETE", `/api/v1/alpha/contact/${w.ada}`]] as const) {
      const res = await t.call(method, path, { key: KEYS.alice, json: { first_name: "X" } });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toMatchObject(path.startsWith("/api/v2") ? { title: "read-only resource type" } : { error: "read-only resource type" });
    }
    expect(await snapshot(t.storage)).toBe(before);
  });

  run("contact/mapreduce answers the list wrapper with value.active_memberships", async () => {
    const t = await setup();
    const w = await world(t);
    t.clock.set(new Date("2026-05-01T12:00:00Z"));
    const res = await get(t, "/api/v1/alpha/contact/mapreduce/?email__startswithi=ada@");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, page: 1, formatted_results: [] });
    const [ada] = res.body.results;
    expect(ada).toMatchObject({ key: w.adaUri, uri: w.adaUri, resource: "person" });
    expect(ada.value).toEqual({
      display_value: "Countess Ada Lovelace",
      email: ["ada@example.org;home", "ada@work.example;work__primary"],
      active_memberships: [{ uri: `/alpha/member/${w.current}/`, display_value: "Gold 0042", membership_record_status: "active", start_date: "2026-01-01", end_date: "2026-12-31" }],
    });
    const everyone = await get(t, "/api/v2/alpha/contact/mapreduce");
    expect(everyone.body.results.map((r: any) => r.value.active_memberships.length)).toEqual([1, 0, 1]);
  });

  run("bad input, foreign flocks and self-service tokens", async () => {
    const t = await setup();
    const w = await world(t);
    const cases: [string, number, string?][] = [
      ["/api/v1/alpha/user/membership/", 400, "email is required"],
      ["/api/v1/alpha/user/membership/?email=not-an-address", 400, "email must be an email address"],
      ["/api/v1/alpha/user/membership/?email=ada@example.org&realtime=maybe", 400, "realtime must be true or false"],
      ["/api/v1/alpha/contact/?page_size=0", 400],
      ["/api/v2/alpha/contact/mapreduce?x__bogus=1", 400],
      [`/api/v1/alpha/journal/${w.ada}/membership/all`, 404, "only person and organisation"],
      [`/api/v1/alpha/person/${"0".repeat(24)}/membership/all`, 404],
      [`/api/v1/alpha/person/nothex/summary`, 404],
      [`/api/v1/alpha/contact/${"0".repeat(24)}`, 404],
      [`/api/v1/ghost/person/${w.ada}/summary`, 404],
    ];
    for (const [path, status, says] of cases) {
      const res = await get(t, path);
      expect(res.status, path).toBe(status);
      if (says) expect(JSON.stringify(res.body), path).toContain(says);
    }
    // alice reaches alpha only; the admin sees the unknown flock as 404.
    for (const path of [`/api/v1${w.adaUri}membership/all`, "/api/v1/alpha/contact/mapreduce", "/api/v1/alpha/user/membership?email=ada@example.org", `/api/v2/alpha/member/${w.current}/detail`]) {
      expect((await get(t, path, KEYS.bob)).status, path).toBe(403);
      expect((await get(t, path, KEYS.member)).status, path).toBe(403);
      expect((await t.call("GET", path)).status, path).toBe(401);
      expect((await get(t, path.replace("/alpha/", "/nowhere/"), KEYS.admin)).status, path).toBe(404);
    }
  });
});
