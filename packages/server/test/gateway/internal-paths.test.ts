/**
 * Issue 21, point 5 (P3 served): membership-type extras and email senders under
 * `/internal/v2/{flock}/`, and the vehicle search `/search/v2/{flock}/car`, on every adapter.
 * Each path: a positive control first, then no key 401, another flock's key 403, a member
 * token 403, an unknown flock 404, deleted and wrong-type ids 404, and bad input a 400 in
 * the v2 error shape that changes nothing.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

type Opts = Parameters<TestApp["call"]>[2];
async function call(t: TestApp, method: string, path: string, opts: Opts = {}) {
  const res = await t.call(method, path, opts);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined, text };
}
const k = { key: KEYS.alice };
const form = (s: string) => ({ ...k, body: s, headers: { "content-type": "application/x-www-form-urlencoded" } });

/** The auth order of a flock path: positive control, then 401, 403 (other flock), 403 (member), 404 (unknown flock). */
async function authOrder(t: TestApp, method: string, path: string, ok: number, opts: Opts = {}) {
  expect((await call(t, method, path, { ...opts, key: KEYS.admin })).status).toBe(ok);
  const refusals = [
    [await call(t, method, path, { ...opts, key: undefined }), 401, "unauthorized"],
    [await call(t, method, path, { ...opts, key: KEYS.bob }), 403, "forbidden"],
    [await call(t, method, path, { ...opts, key: KEYS.member }), 403, "forbidden"],
    [await call(t, method, path.replace("/alpha/", "/ghost/"), { ...opts, key: KEYS.admin }), 404, "not_found"],
  ] as const;
  for (const [res, status, type] of refusals) {
    expect(res.status, `${method} ${path}`).toBe(status);
    expect(res.body).toMatchObject({ type, error: res.body.title });
  }
}

/** A request that must be refused with `status` and write nothing. */
async function refused(t: TestApp, method: string, path: string, opts: Opts, status: number, title?: string) {
  const before = await snapshot(t.storage);
  const res = await call(t, method, path, opts);
  expect(res.status, `${method} ${path} ${res.text}`).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(["description", "error", "title", "type"]);
  if (title) expect(res.body.title).toBe(title);
  expect(await snapshot(t.storage)).toBe(before);
  return res.body;
}

describe.each(EVERY_ADAPTER)("P3 internal paths on %s", (name) => {
  const setup = setupOn(name, { flockResourceTypes: { alpha: ["vehicle"] } });
  const run = it.skipIf(!adapterAvailable(name));

  run("membership-type extras: read, add and replace fields, conditions, removal; each change a normal update", async () => {
    const t = await setup();
    const id = await seed(t, "alpha", "membership_type", { name: "Junior" });
    const base = `/internal/v2/alpha/membership_type/${id}/extras`;
    expect((await call(t, "GET", base, k)).body).toEqual({ uri: `/alpha/membership_type/${id}/`, additional_fields: [], conditions: [] });

    // From the query, as the hosted description puts it; the field name defaults to the slugified label.
    let res = await call(t, "POST", `${base}/additional_field?label=${encodeURIComponent("Emergency contact (phone)")}&description=Who%20to%20call&form_type=tel&required=true`, k);
    expect(res.status).toBe(200);
    expect(res.body.additional_fields).toEqual([{ field: "emergency_contact_phone", label: "Emergency contact (phone)", description: "Who to call", form_type: "tel", required: true }]);
    // JSON body: a select with options; a form body: a person_record with dob_required.
    res = await call(t, "POST", `${base}/additional_field/`, { ...k, json: { label: "T-shirt", field: "shirt", description: "Size", form_type: "select", options: ["S", "M", "L"] } });
    expect(res.body.additional_fields[1]).toEqual({ field: "shirt", label: "T-shirt", description: "Size", form_type: "select", required: false, options: ["S", "M", "L"] });
    res = await call(t, "POST", `${base}/additional_field`, form("label=Guardian&description=A%20parent&form_type=person_record&dob_required=yes"));
    expect(res.body.additional_fields[2]).toMatchObject({ field: "guardian", form_type: "person_record", dob_required: true });
    // The same field again replaces it in place.
    res = await call(t, "POST", `${base}/additional_field`, { ...k, json: { label: "Shirt size", field: "shirt", description: "Size", form_type: "select", options: "S,M" } });
    expect(res.body.additional_fields.map((f: any) => f.field)).toEqual(["emergency_contact_phone", "shirt", "guardian"]);
    expect(res.body.additional_fields[1].options).toEqual(["S", "M"]);

    res = await call(t, "POST", `${base}/condition?key=Age&value=Under%2018`, k);
    expect(res.body.conditions).toEqual([{ key: "Age", value: "Under 18" }]);
    res = await call(t, "POST", `${base}/condition`, { ...k, json: { key: "Age", value: "Under 16" } });
    expect(res.body.conditions).toEqual([{ key: "Age", value: "Under 16" }]);

    res = await call(t, "DELETE", `${base}/additional_field?field=guardian`, k);
    expect(res.body.additional_fields.map((f: any) => f.field)).toEqual(["emergency_contact_phone", "shirt"]);
    res = await call(t, "DELETE", `${base}/condition?key=Age`, k);
    expect(res.body.conditions).toEqual([]);

    // Stored on the record, and written through the engine: the record's history shows each change.
    expect((await t.engine.get("alpha", "membership_type", id)).data["extras"]).toEqual({ additional_fields: res.body.additional_fields, conditions: [] });
    const audit = await call(t, "GET", `/audit/v2/alpha/membership_type/${id}/audit?limit=50`, k);
    expect(audit.body.results.length).toBeGreaterThanOrEqual(7);
  });

  run("membership-type extras: auth order, bad input 400 with nothing written, unknown entries and ids 404", async () => {
    const t = await setup();
    const id = await seed(t, "alpha", "membership_type", { name: "Junior", extras: { additional_fields: [], conditions: [{ key: "Age", value: "Any" }] } });
    const base = `/internal/v2/alpha/membership_type/${id}/extras`;
    await authOrder(t, "GET", base, 200);
    await authOrder(t, "POST", `${base}/condition`, 200, { json: { key: "Region", value: "North" } });

    const field = { label: "Size", description: "Shirt size", form_type: "text" };
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, form_type: "colour" } }, 400, "bad form_type");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, description: "" } }, 400, "missing description");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { label: "Size", form_type: "text" } }, 400, "missing description");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, form_type: "select" } }, 400, "missing options");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, options: ["a"] } }, 400, "bad options");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, required: "maybe" } }, 400, "bad required");
    await refused(t, "POST", `${base}/additional_field`, { ...k, json: { ...field, label: "!!!" } }, 400, "bad field");
    await refused(t, "POST", `${base}/additional_field`, { ...k, body: "[1]", headers: { "content-type": "application/json" } }, 400);
    await refused(t, "POST", `${base}/condition`, { ...k, json: { key: "Age" } }, 400, "missing value");
    await refused(t, "DELETE", `${base}/additional_field`, k, 400, "missing field");
    await refused(t, "DELETE", `${base}/additional_field?field=nope`, k, 404);
    await refused(t, "DELETE", `${base}/condition?key=Nope`, k, 404);

    const person = await seed(t, "alpha", "person", { first_name: "Ada" });
    const gone = await seed(t, "alpha", "membership_type", { name: "Old" });
    await t.engine.delete("alpha", "membership_type", gone);
    for (const other of [person, gone, "0".repeat(24), "not-an-id"]) {
      await refused(t, "GET", `/internal/v2/alpha/membership_type/${other}/extras`, k, 404);
      await refused(t, "POST", `/internal/v2/alpha/membership_type/${other}/extras/condition`, { ...k, json: { key: "a", value: "b" } }, 404);
    }
  });

  run("email senders: add, list, read, change and delete through the records; duplicates are the hosted 400", async () => {
    const t = await setup();
    const sender = { email: "news@example.org", display_name: "Newsletter", products: ["events", "crm"], allow_for_all_users: false, specific_user_list: ["alice"] };
    let res = await call(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: sender });
    expect(res.status).toBe(201);
    const uid = res.body.uid as string;
    expect(res.body).toEqual({ uid, ...sender });
    expect((await t.engine.get("alpha", "email_sender", uid)).data).toMatchObject(sender);
    // From the query string, lists repeated or comma-separated.
    res = await call(t, "POST", "/internal/v2/alpha/email_senders/?email=Office@Example.org&display_name=Office&products=crm&products=giving&allow_for_all_users=true&specific_user_list=", k);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: "Office@Example.org", products: ["crm", "giving"], allow_for_all_users: true, specific_user_list: [] });
    const office = res.body.uid as string;

    res = await call(t, "GET", "/internal/v2/alpha/email_senders", k);
    expect(res.body.uids).toEqual([{ uid, email: "news@example.org" }, { uid: office, email: "Office@Example.org" }]);
    expect(res.body.senders[0]).toEqual({ uid, ...sender });

    await refused(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: { ...sender, email: "NEWS@example.org" } }, 400, "already exists");
    await refused(t, "PUT", `/internal/v2/alpha/email_sender/${office}`, { ...k, json: { email: "news@EXAMPLE.org" } }, 400, "already exists");

    res = await call(t, "PUT", `/internal/v2/alpha/email_sender/${uid}/`, form("display_name=News%20team&products=events"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ uid, ...sender, display_name: "News team", products: ["events"] });
    expect((await call(t, "GET", `/internal/v2/alpha/email_sender/${uid}`, k)).body).toEqual(res.body);

    res = await call(t, "DELETE", `/internal/v2/alpha/email_sender/${uid}`, k);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await t.engine.get("alpha", "email_sender", uid)).state).toBe("deleted");
    await refused(t, "GET", `/internal/v2/alpha/email_sender/${uid}`, k, 404);
    await refused(t, "PUT", `/internal/v2/alpha/email_sender/${uid}`, { ...k, json: { display_name: "x" } }, 404);
    await refused(t, "DELETE", `/internal/v2/alpha/email_sender/${uid}`, k, 404);
    // A deleted sender no longer holds its address.
    expect((await call(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: sender })).status).toBe(201);
  });

  run("email senders: auth order, every field required on POST, bad values 400 with nothing written, wrong type 404", async () => {
    const t = await setup();
    const sender = { email: "news@example.org", display_name: "News", products: [], allow_for_all_users: true, specific_user_list: [] };
    const uid = await seed(t, "alpha", "email_sender", sender);
    await authOrder(t, "GET", "/internal/v2/alpha/email_senders", 200);
    await authOrder(t, "GET", `/internal/v2/alpha/email_sender/${uid}`, 200);
    await authOrder(t, "PUT", `/internal/v2/alpha/email_sender/${uid}`, 200, { json: { display_name: "News" } });

    for (const missing of Object.keys(sender)) {
      const { [missing]: _, ...rest } = { ...sender, email: "other@example.org" } as Record<string, unknown>;
      await refused(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: rest }, 400, `missing ${missing}`);
    }
    const other = { ...sender, email: "other@example.org" };
    await refused(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: { ...other, email: "not an address" } }, 400, "bad email");
    await refused(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: { ...other, allow_for_all_users: "perhaps" } }, 400, "bad allow_for_all_users");
    await refused(t, "POST", "/internal/v2/alpha/email_senders", { ...k, json: { ...other, products: { a: 1 } } }, 400, "bad products");
    await refused(t, "PUT", `/internal/v2/alpha/email_sender/${uid}`, { ...k, json: {} }, 400, "nothing to change");
    await refused(t, "POST", "/internal/v2/alpha/email_senders", { key: KEYS.member, json: other }, 403);
    await refused(t, "DELETE", `/internal/v2/alpha/email_sender/${uid}`, { key: KEYS.bob }, 403);
    const person = await seed(t, "alpha", "person", { first_name: "Ada" });
    await refused(t, "GET", `/internal/v2/alpha/email_sender/${person}`, k, 404);
    await refused(t, "DELETE", `/internal/v2/alpha/email_sender/${person}`, k, 404);
  });

  run("vehicle search: the first parameter given, ignoring case, spaces and dashes; deleted vehicles never; no vehicle type 404", async () => {
    const t = await setup();
    const car = await seed(t, "alpha", "vehicle", { registration_number: "AB12 CDE", engine_number: "E-100", identifying_number: "VIN1" });
    const twin = await seed(t, "alpha", "vehicle", { registration_number: "ab12-cde", engine_number: "E-200" });
    const gone = await seed(t, "alpha", "vehicle", { registration_number: "AB12CDE" });
    await t.engine.delete("alpha", "vehicle", gone);
    await seed(t, "alpha", "vehicle", { registration_number: "ZZ99 ZZZ", engine_number: "e100" });

    let res = await call(t, "GET", "/search/v2/alpha/car?registration_number=ab12cde&engine_number=e100", k);
    expect(res.status).toBe(200);
    expect(res.body.matched_by).toBe("registration_number");
    expect(res.body.count).toBe(2);
    expect(res.body.results.map((r: any) => r.uri).sort()).toEqual([`/alpha/vehicle/${car}/`, `/alpha/vehicle/${twin}/`].sort());
    expect(res.body.results.find((r: any) => r.uri === `/alpha/vehicle/${car}/`)).toMatchObject({ resource: "vehicle", data: { registration_number: "AB12 CDE" } });
    res = await call(t, "GET", "/search/v2/alpha/car/?registration_number=&engine_number=E 100", k);
    expect(res.body).toMatchObject({ matched_by: "engine_number", count: 2 });
    res = await call(t, "GET", "/search/v2/alpha/car?identifying_number=nope", k);
    expect(res.body).toEqual({ matched_by: "identifying_number", count: 0, results: [] });

    await authOrder(t, "GET", "/search/v2/alpha/car?engine_number=e100", 200);
    await refused(t, "GET", "/search/v2/alpha/car", k, 400, "missing search");
    await refused(t, "GET", "/search/v2/alpha/car?registration_number=%20-%20", k, 400, "missing search");
    // beta serves no vehicle type.
    await refused(t, "GET", "/search/v2/beta/car?registration_number=ab12cde", { key: KEYS.bob }, 404, "unknown resource type");
  });
});
