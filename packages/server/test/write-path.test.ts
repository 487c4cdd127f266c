/**
 * One path for writes (issue 15, point 5): a multipart upload is an update like a JSON
 * one. Whatever JSON refuses (read-only fields of data events and tasks, reserved and
 * malformed names, unknown or system person fields) an upload aimed at the same field
 * refuses with the same status and body, on both surfaces, writing nothing; part names that
 * are JavaScript object members are a 400, never a 500.
 */
import { validateTriggers, type ChangeSet } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";
import { snapshot } from "./helpers/snapshot.js";

const key = KEYS.alice;
const headers = { application: "Tests/records-service/1" };
const TRIGGERS = validateTriggers([{ flock: "alpha", trigger: "contact_created", action: "send-json-webhook", url: "https://example.org/a" }]).triggers;

/** A test app holding a journal, a person, a data event (of the person's creation) and a finished task. */
async function setup(): Promise<{ t: TestApp; ids: Record<Target, string> }> {
  const t = await createTestApp({ triggers: TRIGGERS });
  const journal = await seed(t, "alpha", "journal", { title: "Minutes" });
  const person = await seed(t, "alpha", "person", { first_name: "Ada" });
  const events = await t.storage.listRecords("alpha", "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 1 });
  const res = await t.call("POST", "/api/v1/alpha/bulk_action/", { key, headers, json: { action: "add_tag", query: {}, value: "x", resource_type: "journal" } });
  const { task_id } = (await res.json()) as { task_id: string };
  return { t, ids: { journal, person, data_event: events.records[0]!.id, core_event: task_id } };
}

type Target = "journal" | "person" | "data_event" | "core_event";
type Case = [name: string, target: Target, field: string, jsonBody: string, error: string];

const RESERVED = ["constructor", "__proto__", "toString", "hasOwnProperty", "prototype", "valueOf", "__defineGetter__"];

const CASES: Case[] = [
  ["a data event's context_ref", "data_event", "context_ref", '{"context_ref": "/alpha/person/0123456789abcdef01234567/"}', "read-only fields"],
  ["a data event's name", "data_event", "name", '{"name": "login"}', "read-only fields"],
  ["a data event's dedupe_key", "data_event", "dedupe_key", '{"dedupe_key": "x"}', "read-only fields"],
  ["a task's tag", "core_event", "tag", '{"tag": "queued"}', "read-only task"],
  ["a task's text_body", "core_event", "text_body", '{"text_body": "{}"}', "read-only task"],
  ["a person's system field", "person", "formatted_name", '{"formatted_name": "X"}', "system-generated field"],
  ["a field a person does not have", "person", "cv", '{"cv": "x"}', "unknown fields"],
  ["a malformed field name", "journal", "bad-name", '{"bad-name": "x"}', "invalid field name"],
  ["a field name past 128 characters", "journal", "f".repeat(129), `{"${"f".repeat(129)}": "x"}`, "invalid field name"],
  ...RESERVED.map((name): Case => [`the reserved name ${name} on a journal`, "journal", name, `{"${name}": "x"}`, "reserved field name"]),
  ...RESERVED.map((name): Case => [`the reserved name ${name} on a person`, "person", name, `{"${name}": "x"}`, "reserved field name"]),
];

describe.each(["v1", "v2"] as const)("one path for writes on %s", (surface) => {
  it.each(CASES)("%s: the same 400 as JSON, nothing written", async (_name, target, field, jsonBody, error) => {
    const { t, ids } = await setup();
    const path = `/api/${surface}/alpha/${target}/${ids[target]}/`;
    const writes = _countWrites(t);
    const before = await snapshot(t.storage);
    const jobs = await t.storage.listJobs({});

    const json = await t.call("PUT", path, { key, headers: { ...headers, "content-type": "application/json" }, body: jsonBody });
    const form = new FormData();
    form.append(field, new File(["file content"], "notes.txt", { type: "text/plain" }));
    const upload = await t.call("PUT", path, { key, headers, body: form });

    expect(json.status).toBe(400);
    expect(upload.status).toBe(400);
    const [jsonAnswer, uploadAnswer] = [await json.json(), await upload.json()];
    expect(uploadAnswer).toEqual(jsonAnswer);
    expect(Object.keys(uploadAnswer as object).sort()).toEqual(surface === "v1" ? ["error", "error_detail"] : ["description", "error", "title", "type"]);
    expect(uploadAnswer).toMatchObject(surface === "v1" ? { error } : { title: error });
    expect(writes()).toBe(0);
    expect(await snapshot(t.storage)).toBe(before);
    expect(await t.storage.listJobs({})).toEqual(jobs);
  });

  it("still stores an upload JSON could make: a data event's own field, a person's photo", async () => {
    const { t, ids } = await setup();
    for (const [target, field] of [["data_event", "attachments"], ["person", "photo"], ["journal", "files"]] as const) {
      const form = new FormData();
      form.append(field, new File(["x"], "a.png", { type: "image/png" }));
      const res = await t.call("PUT", `/api/${surface}/alpha/${target}/${ids[target]}/`, { key, headers, body: form });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { errors: object; updates: Record<string, string[]> };
      expect(body.errors).toEqual({});
      expect(body.updates[field]).toHaveLength(1);
    }
  });

  it("reports a person field that JSON may write but that holds no file in errors, as the spec answers", async () => {
    const { t, ids } = await setup();
    const before = await snapshot(t.storage);
    const form = new FormData();
    form.append("notes", new File(["x"], "a.txt", { type: "text/plain" }));
    const res = await t.call("PUT", `/api/${surface}/alpha/person/${ids.person}/`, { key, headers, body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ errors: { notes: "'notes' is not a file field of person; upload to 'photo'" }, updates: {} });
    expect(await snapshot(t.storage)).toBe(before);
  });
});

describe("reserved names are refused on create too, and nested __proto__ keys anywhere", () => {
  it.each(RESERVED)("POST with %s: 400 reserved field name", async (name) => {
    const t = await createTestApp();
    const before = await snapshot(t.storage);
    const res = await t.call("POST", "/api/v1/alpha/journal/", { key, headers: { ...headers, "content-type": "application/json" }, body: `{"title": "x", "${name}": 1}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "reserved field name", error_detail: expect.stringContaining(`"${name}"`) });
    expect(await snapshot(t.storage)).toBe(before);
  });
});

// --- internal ---

/** Counts `storage.apply` calls from now on: a refused request must make none. */
function _countWrites(t: TestApp): () => number {
  let n = 0;
  const apply = t.storage.apply.bind(t.storage);
  t.storage.apply = (changes: ChangeSet) => {
    n += 1;
    return apply(changes);
  };
  return () => n;
}
