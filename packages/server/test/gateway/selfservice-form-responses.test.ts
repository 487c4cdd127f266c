/**
 * Issue 21, point 4 (P2), spec v2-gateway section 9: the member app's form responses on
 * every storage adapter. POST starts 1..50 empty responses (data events fire as for any
 * create), PUT/DELETE allocate set and clear `contact_ref`; core keys reach every response,
 * member tokens the ones they requested or that are allocated to them. Refusals after a
 * positive control; bad input 4xx in the v2 error shape with nothing written.
 */
import { describe, expect, it, vi } from "vitest";
import { readAll } from "../../src/gateway/read-all.js";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

const ERROR_KEYS = ["description", "error", "title", "type"];
const BASE = "/selfservice/v2/alpha/form_response";

async function world(t: TestApp) {
  const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace", email: ["member@example.org;home"] });
  const grace = await seed(t, "alpha", "person", { first_name: "Grace", last_name: "Hopper" });
  const acme = await seed(t, "alpha", "organisation", { name: "Acme" });
  const form = await seed(t, "alpha", "form", { name: "Certificate application" });
  const sheep = await seed(t, "alpha", "sheep_form", { name: "Legacy form" });
  return { ada, grace, acme, form, sheep, adaUri: `/alpha/person/${ada}/`, graceUri: `/alpha/person/${grace}/`, formUri: `/alpha/form/${form}/` };
}

const createdEvents = async (t: TestApp) => (await readAll(t.engine, "alpha", "data_event", [["name", "form_response_created"]])).map((e) => e.data.context_ref);

describe.each(EVERY_ADAPTER)("self-service form responses on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const call = async (t: TestApp, method: string, path: string, o: Parameters<TestApp["call"]>[2] = {}) => {
    const res = await t.call(method, path, o);
    return { status: res.status, body: (await res.json()) as any };
  };

  run("a core key starts responses: quantity empty records through the engine, form_response_created for each", async () => {
    const t = await setup();
    const w = await world(t);
    const res = await call(t, "POST", `${BASE}?form_ref=${encodeURIComponent(w.formUri)}&quantity=3`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.body.form_ref).toBe(w.formUri);
    expect(res.body.quantity).toBe(3);
    expect(res.body.form_responses).toHaveLength(3);
    for (const r of res.body.form_responses) {
      expect(r).toMatchObject({ resource: "form_response", bucket: "alpha", uri: expect.stringMatching(/^\/alpha\/form_response\/[0-9a-f]{24}\/$/) });
      expect(r.data).toMatchObject({ form_ref: { display_value: "Certificate application", ref: w.formUri }, status: "started", contact_ref: null, requested_by_ref: null });
    }
    expect((await createdEvents(t)).sort()).toEqual(res.body.form_responses.map((r: any) => r.uri).sort());
    // Default quantity 1, the form in a JSON body, a sheep_form without its final slash.
    const one = await call(t, "POST", `${BASE}/`, { key: KEYS.alice, json: { form_ref: w.formUri } });
    expect(one.body).toMatchObject({ quantity: 1, form_responses: [expect.any(Object)] });
    const sheep = await call(t, "POST", BASE, { key: KEYS.alice, json: { form_ref: `/alpha/sheep_form/${w.sheep}`, quantity: 2 } });
    expect(sheep.status).toBe(200);
    expect(sheep.body).toMatchObject({ form_ref: `/alpha/sheep_form/${w.sheep}/`, quantity: 2 });
    expect(await createdEvents(t)).toHaveLength(6);
    // Written through the engine acting for the caller: the change log names alice.
    const audit = await call(t, "GET", `/audit/v2/alpha/form_response/${one.body.form_responses[0].uri.split("/")[3]}/audit`, { key: KEYS.alice });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body.results)).toContain("alice");
  });

  run("a member token: requested_by_ref is the member's person; allocate and release its own responses only", async () => {
    const t = await setup();
    const w = await world(t);
    const form = new URLSearchParams({ form_ref: w.formUri, quantity: "2" });
    const mine = await call(t, "POST", BASE, { key: KEYS.member, body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(mine.status).toBe(200);
    expect(mine.body.form_responses[0].data.requested_by_ref).toEqual({ display_value: "Ada Lovelace", ref: w.adaUri });
    const [first] = mine.body.form_responses.map((r: any) => r.uri.split("/")[3] as string);

    // Allocate to Grace (a member may allocate what it requested, to any person of the flock), then release.
    const allocated = await call(t, "PUT", `${BASE}/${first}/allocate?contact_ref=${encodeURIComponent(w.graceUri)}`, { key: KEYS.member });
    expect(allocated.status).toBe(200);
    expect(allocated.body.data.contact_ref).toEqual({ display_value: "Grace Hopper", ref: w.graceUri });
    const released = await call(t, "DELETE", `${BASE}/${first}/allocate/`, { key: KEYS.member });
    expect(released.status).toBe(200);
    expect(released.body.data.contact_ref).toBeNull();
    expect((await t.engine.get("alpha", "form_response", first)).data.contact_ref).toBeNull();

    // A core key's response is not the member's: 404, until a core key allocates it to Ada.
    const theirs = (await call(t, "POST", BASE, { key: KEYS.alice, json: { form_ref: w.formUri } })).body.form_responses[0].uri.split("/")[3] as string;
    const before = await snapshot(t.storage);
    const hidden = await call(t, "PUT", `${BASE}/${theirs}/allocate`, { key: KEYS.member, json: { contact_ref: w.adaUri } });
    expect(hidden.status).toBe(404);
    expect(Object.keys(hidden.body).sort()).toEqual(ERROR_KEYS);
    expect((await call(t, "DELETE", `${BASE}/${theirs}/allocate`, { key: KEYS.member })).status).toBe(404);
    expect(await snapshot(t.storage)).toBe(before);
    const organisation = await call(t, "PUT", `${BASE}/${theirs}/allocate`, { key: KEYS.alice, json: { contact_ref: `/alpha/organisation/${w.acme}/` } });
    expect(organisation.body.data.contact_ref).toEqual({ display_value: "Acme", ref: `/alpha/organisation/${w.acme}/` });
    expect((await call(t, "PUT", `${BASE}/${theirs}/allocate`, { key: KEYS.alice, json: { contact_ref: w.adaUri } })).status).toBe(200);
    expect((await call(t, "DELETE", `${BASE}/${theirs}/allocate`, { key: KEYS.member })).status).toBe(200);
    // Released from Ada, it is no longer hers.
    expect((await call(t, "DELETE", `${BASE}/${theirs}/allocate`, { key: KEYS.member })).status).toBe(404);
  });

  run("refuses strangers and other flocks' keys before any read", async () => {
    const t = await setup();
    const w = await world(t);
    const id = (await call(t, "POST", BASE, { key: KEYS.alice, json: { form_ref: w.formUri } })).body.form_responses[0].uri.split("/")[3] as string;
    // Positive controls first.
    expect((await call(t, "PUT", `${BASE}/${id}/allocate`, { key: KEYS.alice, json: { contact_ref: w.adaUri } })).status).toBe(200);
    expect((await call(t, "DELETE", `${BASE}/${id}/allocate`, { key: KEYS.member })).status).toBe(200);
    const before = await snapshot(t.storage);
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "getRecords"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "listRecords")];
    for (const [method, path, key, status] of [
      ["POST", `${BASE}?form_ref=${encodeURIComponent(w.formUri)}`, KEYS.bob, 403],
      ["POST", `${BASE}?form_ref=${encodeURIComponent(w.formUri)}`, undefined, 401],
      ["PUT", `${BASE}/${id}/allocate?contact_ref=${encodeURIComponent(w.adaUri)}`, KEYS.bob, 403],
      ["DELETE", `${BASE}/${id}/allocate`, KEYS.bob, 403],
      ["DELETE", `${BASE}/${id}/allocate`, undefined, 401],
      ["POST", `/selfservice/v2/beta/form_response?form_ref=/beta/form/${w.form}/`, KEYS.member, 403],
      ["DELETE", `/selfservice/v2/beta/form_response/${id}/allocate`, KEYS.member, 403],
      ["POST", `/selfservice/v2/ghost/form_response?form_ref=/ghost/form/${w.form}/`, KEYS.admin, 404],
    ] as const) {
      const res = await call(t, method, path, key ? { key } : {});
      expect(res.status, `${method} ${path} ${key}`).toBe(status);
      expect(Object.keys(res.body).sort()).toEqual(ERROR_KEYS);
    }
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(await snapshot(t.storage)).toBe(before);
  });

  run("bad input: 4xx in the v2 error shape, nothing written", async () => {
    const t = await setup();
    const w = await world(t);
    const id = (await call(t, "POST", BASE, { key: KEYS.alice, json: { form_ref: w.formUri } })).body.form_responses[0].uri.split("/")[3] as string;
    const deletedForm = await seed(t, "alpha", "form", { name: "Gone" });
    await t.engine.delete("alpha", "form", deletedForm);
    const deletedPerson = await seed(t, "alpha", "person", { first_name: "Gone" });
    await t.engine.delete("alpha", "person", deletedPerson);
    const betaForm = await seed(t, "beta", "form", { name: "Beta" });
    const gone = (await call(t, "POST", BASE, { key: KEYS.alice, json: { form_ref: w.formUri } })).body.form_responses[0].uri.split("/")[3] as string;
    await t.engine.delete("alpha", "form_response", gone);
    const before = await snapshot(t.storage);
    const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;
    const cases: [string, string, Parameters<TestApp["call"]>[2], number, string][] = [
      ["POST", BASE + q({ form_ref: w.formUri, quantity: "0" }), {}, 400, "bad quantity"],
      ["POST", BASE + q({ form_ref: w.formUri, quantity: "51" }), {}, 400, "bad quantity"],
      ["POST", BASE, { json: { form_ref: w.formUri, quantity: "abc" } }, 400, "bad quantity"],
      ["POST", BASE, { json: { form_ref: w.formUri, quantity: -1 } }, 400, "bad quantity"],
      ["POST", BASE, { json: { form_ref: w.formUri, quantity: 2.5 } }, 400, "bad quantity"],
      ["POST", BASE, {}, 400, "missing form_ref"],
      ["POST", BASE + q({ form_ref: w.adaUri }), {}, 400, "bad form_ref"],
      ["POST", BASE + q({ form_ref: `/beta/form/${betaForm}/` }), {}, 400, "bad form_ref"],
      ["POST", BASE + q({ form_ref: "not a uri" }), {}, 400, "bad form_ref"],
      ["POST", BASE, { body: "{not json", headers: { "content-type": "application/json" } }, 400, ""],
      ["POST", BASE + q({ form_ref: `/alpha/form/${"0".repeat(24)}/` }), {}, 404, "not found"],
      ["POST", BASE + q({ form_ref: `/alpha/form/${deletedForm}/` }), {}, 404, "not found"],
      ["POST", BASE + q({ form_ref: `/alpha/form/${w.sheep}/` }), {}, 404, "not found"],
      ["PUT", `${BASE}/${id}/allocate`, {}, 400, "missing contact_ref"],
      ["PUT", `${BASE}/${id}/allocate` + q({ contact_ref: w.formUri }), {}, 400, "bad contact_ref"],
      ["PUT", `${BASE}/${id}/allocate` + q({ contact_ref: `/beta/person/${w.ada}/` }), {}, 400, "bad contact_ref"],
      ["PUT", `${BASE}/${id}/allocate` + q({ contact_ref: `/alpha/person/${"0".repeat(24)}/` }), {}, 404, "not found"],
      ["PUT", `${BASE}/${id}/allocate` + q({ contact_ref: `/alpha/person/${deletedPerson}/` }), {}, 404, "not found"],
      ["PUT", `${BASE}/${"0".repeat(24)}/allocate` + q({ contact_ref: w.adaUri }), {}, 404, "not found"],
      ["PUT", `${BASE}/${gone}/allocate` + q({ contact_ref: w.adaUri }), {}, 404, "not found"],
      ["PUT", `${BASE}/${w.ada}/allocate` + q({ contact_ref: w.adaUri }), {}, 404, "not found"],
      ["DELETE", `${BASE}/${gone}/allocate`, {}, 404, "not found"],
      ["DELETE", `${BASE}/not-an-id/allocate`, {}, 404, "not found"],
    ];
    for (const [method, path, opts, status, title] of cases) {
      const res = await call(t, method, path, { key: KEYS.alice, ...opts });
      const label = `${method} ${path} ${JSON.stringify(opts)}`;
      expect(res.status, label).toBe(status);
      expect(Object.keys(res.body).sort(), label).toEqual(ERROR_KEYS);
      if (title) expect(res.body.title, label).toBe(title);
      expect(res.body.error, label).toBe(res.body.title);
    }
    expect(await snapshot(t.storage)).toBe(before);
  });
});
