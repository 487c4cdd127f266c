/**
 * `POST /api/v1/{flock}/bulk_action/` over HTTP, on both Storage adapters: every action
 * queued, run (as the task worker runs it) and read back as a `core_event` record, and
 * every bad body refused with a 400 naming the problem before anything is queued.
 */
import { runTask } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { appSetupOn, STORAGE_ADAPTERS } from "./helpers/adapters.js";
import { KEYS, seed, type TestApp } from "./helpers/app.js";

describe.each(STORAGE_ADAPTERS)("bulk actions on %s storage", (_name, make) => {
  const setup = appSetupOn(make);

  /** Posts a bulk action, runs its task to the end, and returns the task record's envelope. */
  async function bulk(t: TestApp, body: unknown, flock = "alpha") {
    const res = await t.call("POST", `/api/v1/${flock}/bulk_action/`, { key: KEYS.alice, json: body });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: string };
    expect(task_id).toMatch(/^[0-9a-f]{24}$/);
    const queued = await t.call("GET", `/api/v1/${flock}/core_event/${task_id}/`, { key: KEYS.alice });
    expect(((await queued.json()) as { data: { tag: string } }).data.tag).toBe("queued");
    await runTask(t.engine, flock, task_id, { chunkSize: 2 });
    const done = await t.call("GET", `/api/v1/${flock}/core_event/${task_id}`, { key: KEYS.alice });
    expect(done.status).toBe(200);
    const envelope = (await done.json()) as { data: Record<string, unknown> };
    return { ...envelope.data, task_id, result: JSON.parse(envelope.data.text_body as string) as Record<string, unknown> };
  }

  const person = async (t: TestApp, id: string) =>
    ((await (await t.call("GET", `/api/v1/alpha/person/${id}/`, { key: KEYS.alice })).json()) as { data: Record<string, unknown> }).data;

  it("add_tag and remove_tag", async () => {
    const t = await setup();
    const ids = [
      await seed(t, "alpha", "person", { first_name: "Ada", tags: ["gala"] }),
      await seed(t, "alpha", "person", { first_name: "Bob" }),
      await seed(t, "alpha", "person", { first_name: "Cy", last_name: "Other" }),
    ];
    const added = await bulk(t, { action: "add_tag", query: { first_name__or: ["Ada", "Bob"] }, value: "gala", description: "gala guests" });
    expect(added).toMatchObject({ tag: "complete", task: "bulk_action", description: "gala guests" });
    expect(added.result).toEqual({ state: "complete", matched: 2, changed: 1, unchanged: 1, errors: 0 });
    expect((await person(t, ids[1]!)).tags).toEqual(["gala"]);
    expect((await person(t, ids[2]!)).tags).toEqual([null]);
    const removed = await bulk(t, { action: "remove_tag", query: { tags: "gala" }, value: "gala" });
    expect(removed.result).toMatchObject({ matched: 2, changed: 2 });
    expect((await person(t, ids[0]!)).tags).toEqual([null]);
  });

  it("set-single-field, with the value converted for the field's kind", async () => {
    const t = await setup();
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const done = await bulk(t, { action: "set-single-field", query: { last_name: "Lovelace" }, field: "email_opt_out", value: "true", resource_type: "contacts" });
    expect(done.result).toMatchObject({ matched: 1, changed: 1 });
    expect((await person(t, id)).email_opt_out).toBe(true);
    await bulk(t, { action: "set-single-field", query: {}, field: "title", value: "Countess" });
    expect((await person(t, id)).formatted_name).toBe("Countess Ada Lovelace");
  });

  it("set-single-field-on-last-membership picks the membership with the latest start_date", async () => {
    const t = await setup();
    const ada = await seed(t, "alpha", "person", { first_name: "Ada" });
    const bob = await seed(t, "alpha", "person", { first_name: "Bob" });
    const uri = (id: string) => `/alpha/person/${id}/`;
    const old = await seed(t, "alpha", "member", { member: uri(ada), start_date: "2025-01-01", membership_type: "basic" });
    const latest = await seed(t, "alpha", "member", { member: uri(ada), start_date: "2026-01-01", membership_type: "basic" });
    const middle = await seed(t, "alpha", "membership", { member: uri(ada), start_date: "2025-06-01", membership_type: "basic" });
    const done = await bulk(t, { action: "set-single-field-on-last-membership", query: {}, field: "membership_type", value: "gold" });
    expect(done.result).toMatchObject({ matched: 2, changed: 1, errors: 1, error_details: [`${uri(bob)}: no membership`] });
    const type = async (t2: string, id: string) =>
      ((await (await t.call("GET", `/api/v1/alpha/${t2}/${id}/`, { key: KEYS.alice })).json()) as { data: { membership_type: string } }).data.membership_type;
    expect([await type("member", old), await type("member", latest), await type("membership", middle)]).toEqual(["basic", "gold", "basic"]);
  });

  it("keeps to the flock it was posted in", async () => {
    const t = await setup();
    const mine = await seed(t, "alpha", "person", { first_name: "Ada" });
    const theirs = await seed(t, "beta", "person", { first_name: "Ada" });
    await bulk(t, { action: "add_tag", query: { first_name: "Ada" }, value: "x" });
    expect((await t.storage.getRecord("alpha", "person", mine))!.data.tags).toEqual(["x"]);
    expect((await t.storage.getRecord("beta", "person", theirs))!.data.tags).toBeNull();
  });

  it.each([
    { name: "invalid JSON", body: "{nope", error: "invalid JSON" },
    { name: "a JSON array", json: [], error: "invalid body" },
    { name: "no action", json: { query: {} }, detail: /action is required/ },
    { name: "a bad action", json: { action: "add-tag", query: {}, value: "x" }, detail: /action must be one of add_tag/ },
    { name: "no query", json: { action: "add_tag", value: "x" }, detail: /query is required/ },
    { name: "a query string instead of an object", json: { action: "add_tag", query: "tags=x", value: "x" }, detail: /query is required/ },
    { name: "an unknown query field", json: { action: "add_tag", query: { shoe: "9" }, value: "x" }, detail: /"shoe" is not a field/ },
    { name: "an unknown modifier", json: { action: "add_tag", query: { tags__nope: "9" }, value: "x" }, detail: /modifier "nope"/ },
    { name: "paging in the query", json: { action: "add_tag", query: { page_size: "9" }, value: "x" }, detail: /"page_size" is not accepted/ },
    { name: "add_tag without a value", json: { action: "add_tag", query: {} }, detail: /needs value/ },
    { name: "set-single-field without a field", json: { action: "set-single-field", query: {}, value: "x" }, detail: /needs field/ },
    { name: "set-single-field without a value", json: { action: "set-single-field", query: {}, field: "title" }, detail: /needs value/ },
    { name: "an unknown field", json: { action: "set-single-field", query: {}, field: "shoe", value: "9" }, detail: /person has no field 'shoe'/ },
    { name: "a boolean field set to maybe", json: { action: "set-single-field", query: {}, field: "deceased", value: "maybe" }, detail: /deceased: expected true or false/ },
    { name: "a reference to no record", json: { action: "set-single-field", query: {}, field: "contact_ref", value: "/alpha/person/0123456789abcdef01234567/", resource_type: "journal" }, detail: /no record/ },
    { name: "an unknown resource type", json: { action: "add_tag", query: {}, value: "x", resource_type: "widget" }, detail: /"widget" is not a resource type/ },
    { name: "the tasks' own resource type", json: { action: "set-single-field", query: {}, field: "tag", value: "complete", resource_type: "core_event" }, detail: /resource_type core_event holds the tasks themselves/ },
    { name: "a value that is a number", json: { action: "set-single-field", query: {}, field: "title", value: 7 }, detail: /value must be a string/ },
    // Keys that are also Object property names: never dropped, so never a match-all query.
    { name: "constructor in a person query", body: '{"action":"add_tag","query":{"constructor":"yes"},"value":"x"}', error: "unknown field", detail: /"constructor" is not a field/ },
    { name: "prototype in a person query", body: '{"action":"add_tag","query":{"prototype":"yes"},"value":"x"}', error: "unknown field", detail: /"prototype" is not a field/ },
    { name: "__proto__ in a person query", body: '{"action":"add_tag","query":{"__proto__":"yes"},"value":"x"}', detail: /"__proto__" is not accepted/ },
    { name: "__proto__ in a journal query", body: '{"action":"add_tag","query":{"__proto__":"yes"},"value":"x","resource_type":"journal"}', detail: /"__proto__" is not accepted/ },
    { name: "set-single-field of __proto__ on person", json: { action: "set-single-field", query: {}, field: "__proto__", value: "x" }, detail: /__proto__/ },
    { name: "set-single-field of __proto__ on journal", json: { action: "set-single-field", query: {}, field: "__proto__", value: "x", resource_type: "journal" }, detail: /__proto__/ },
  ])("refuses $name with a 400 and queues nothing", async (c) => {
    const t = await setup();
    const res = await t.call("POST", "/api/v1/alpha/bulk_action/", { key: KEYS.alice, ...(c.json !== undefined ? { json: c.json } : { body: c.body, headers: { "content-type": "application/json" } }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_detail: string };
    if (c.error) expect(body.error).toBe(c.error);
    if (c.detail) expect(body.error_detail).toMatch(c.detail);
    expect((await t.storage.listRecords("alpha", "core_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 10 })).total).toBe(0);
  });

  it("filters on constructor and prototype on an open type instead of matching everything", async () => {
    const t = await setup();
    // Writes refuse these names now; records stored before that rule are still found.
    const legacy = async (data: Record<string, unknown>) => {
      const id = t.engine.context.ids();
      const at = "2026-01-01T00:00:00.000000";
      await t.storage.apply({ records: [{ kind: "insert", record: { id, flock: "alpha", type: "journal", state: "updated", data, displayValue: String(data.name), created: at, lastUpdated: at, version: 1 } }] });
      return id;
    };
    const hit = await legacy({ name: "a", prototype: "yes", constructor: "c" });
    const miss = await legacy({ name: "b", prototype: "no" });
    const person = await seed(t, "alpha", "person", { first_name: "Ada" });
    for (const body of ['{"action":"add_tag","query":{"prototype":"yes"},"value":"x","resource_type":"journal"}', '{"action":"add_tag","query":{"constructor":"c"},"value":"y","resource_type":"journal"}']) {
      const res = await t.call("POST", "/api/v1/alpha/bulk_action/", { key: KEYS.alice, body, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(202);
      const { task_id } = (await res.json()) as { task_id: string };
      const done = await runTask(t.engine, "alpha", task_id);
      expect(JSON.parse(done.data.text_body as string)).toMatchObject({ matched: 1, changed: 1 });
    }
    expect((await t.storage.getRecord("alpha", "journal", hit))!.data.tags).toEqual(["x", "y"]);
    expect((await t.storage.getRecord("alpha", "journal", miss))!.data.tags ?? null).toBeNull();
    expect((await t.storage.getRecord("alpha", "person", person))!.data.tags).toBeNull();
  });

  it("lets a client cancel an active task over PUT, and refuses every other change", async () => {
    const t = await setup();
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const put = (task: string, json: unknown) => t.call("PUT", `/api/v1/alpha/core_event/${task}/`, { key: KEYS.alice, json });
    const done = await bulk(t, { action: "add_tag", query: {}, value: "x" });
    const finished = (await t.storage.getRecord("alpha", "core_event", done.task_id))!;
    for (const json of [{ tag: "queued" }, { params: { action: "remove_tag", query: {}, resource_type: "person", field: "tags", value: "x" } }, { text_body: "{}" }]) {
      const res = await put(done.task_id, json);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("read-only task");
    }
    expect((await put(done.task_id, { tag: "failed" })).status).toBe(409);
    expect(await t.storage.getRecord("alpha", "core_event", done.task_id)).toEqual(finished);
    await runTask(t.engine, "alpha", done.task_id); // nothing was requeued: nothing runs again
    expect((await t.storage.getRecord("alpha", "core_event", done.task_id))!.data).toMatchObject({ tag: "complete", matched: 1, changed: 1 });
    expect((await person(t, id)).tags).toEqual(["x"]);

    const res = await t.call("POST", "/api/v1/alpha/bulk_action/", { key: KEYS.alice, json: { action: "remove_tag", query: {}, value: "x" } });
    const { task_id } = (await res.json()) as { task_id: string };
    const cancelled = await put(task_id, { tag: "failed" });
    expect(cancelled.status).toBe(200);
    const data = (await cancelled.json()) as Record<string, unknown>; // PUT answers the changed fields
    expect(data.tag).toBe("failed");
    expect(JSON.parse(data.text_body as string)).toMatchObject({ state: "failed", error: "cancelled" });
    await runTask(t.engine, "alpha", task_id);
    expect((await person(t, id)).tags).toEqual(["x"]);
  });

  it("answers 401, 403 and 404 like every other path, and 400 for a non-JSON body", async () => {
    const t = await setup();
    const body = { action: "add_tag", query: {}, value: "x" };
    expect((await t.call("POST", "/api/v1/alpha/bulk_action/", { json: body })).status).toBe(401);
    expect((await t.call("POST", "/api/v1/beta/bulk_action/", { key: KEYS.alice, json: body })).status).toBe(403);
    expect((await t.call("POST", "/api/v1/alpha/bulk_action/", { key: KEYS.member, json: body })).status).toBe(403);
    expect((await t.call("POST", "/api/v1/ghost/bulk_action/", { key: KEYS.admin, json: body })).status).toBe(404);
    const form = await t.call("POST", "/api/v1/alpha/bulk_action/", { key: KEYS.alice, body: "action=add_tag", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(400);
    // bulk_action is not a resource type: there is nothing to read there.
    expect((await t.call("GET", "/api/v1/alpha/bulk_action/", { key: KEYS.alice })).status).toBe(404);
  });
});
