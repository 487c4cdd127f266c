import { validateTriggers } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS } from "./helpers/app.js";

const TRIGGERS = validateTriggers([{ flock: "alpha", trigger: "contact_created", action: "send-json-webhook", url: "https://example.org/a" }]).triggers;

async function withEvent() {
  const t = await createTestApp({ triggers: TRIGGERS });
  await t.engine.create("alpha", "person", { first_name: "Ada" });
  const list = (await (await t.call("GET", "/api/v1/alpha/data_event/", { key: KEYS.alice })).json()) as { results: { uri: string }[] };
  const path = `/api/v1${list.results[0]!.uri}`;
  const read = async () => (await t.call("GET", path, { key: KEYS.alice })).json();
  return { t, path, read };
}

describe("PUT /api/v1/{flock}/data_event/{id}/", () => {
  it.each([
    [{ name: "lapsed_90d" }, "name"],
    [{ event: "lapsed", variation: "90d", fire_at: "2020-01-01" }, "event, variation, fire_at"],
    [{ context_ref: "/alpha/person/0123456789abcdef01234567/" }, "context_ref"],
    [{ dedupe_key: "mine" }, "dedupe_key"],
    [{ tags: "send-json-webhook" }, "tags"],
    [{ tags: [1, 2] }, "tags"],
    [{ expires_at: "whenever" }, "expires_at"],
    [{ expires_at: "2026-01-15T09:59:59" }, "before the event's fire_at"],
    [{ tags: [], name: "login" }, "name"], // a good change does not carry a bad one
  ])("refuses %j with 400 naming %s, and changes nothing", async (patch, named) => {
    const { t, path, read } = await withEvent();
    const before = await read();
    const jobsBefore = await t.storage.listJobs({});
    for (const method of ["PUT", "PATCH"]) {
      const res = await t.call(method, path, { key: KEYS.alice, json: patch });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; error_detail: string };
      expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
      expect(body.error_detail).toContain(named);
    }
    expect(await read()).toEqual(before);
    expect(await t.storage.listJobs({})).toEqual(jobsBefore);
  });

  it("accepts tags, a later expiry and unchanged read-only values; removing a tag queues the action again", async () => {
    const { t, path, read } = await withEvent();
    const before = (await read()) as { data: Record<string, unknown> };
    const eventId = path.split("/").at(-2);
    const jobsAtStart = await t.storage.listJobs({});
    // The action's tag, as if it had run: adding tags queues nothing.
    const ok = await t.call("PUT", path, {
      key: KEYS.alice,
      json: { name: before.data.name, fire_at: before.data.fire_at, tags: ["mine", "send-json-webhook"], expires_at: "2027-01-01" },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ tags: ["mine", "send-json-webhook"], expires_at: "2027-01-01" });
    const jobsBefore = await t.storage.listJobs({});
    expect(jobsBefore).toEqual(jobsAtStart);

    expect((await t.call("PUT", path, { key: KEYS.alice, json: { tags: ["mine"] } })).status).toBe(200);
    const jobsAfter = await t.storage.listJobs({});
    expect(jobsAfter).toHaveLength(jobsBefore.length + 1);
    const known = new Set(jobsBefore.map((j) => j.id));
    const added = jobsAfter.filter((j) => !known.has(j.id));
    expect(added).toEqual([
      expect.objectContaining({ flock: "alpha", dataEventId: eventId, trigger: "contact_created", action: "send-json-webhook", status: "pending", attempts: 0 }),
    ]);

    // Removing a tag that names no action queues nothing more.
    expect((await t.call("PUT", path, { key: KEYS.alice, json: { tags: null } })).status).toBe(200);
    expect(await t.storage.listJobs({})).toHaveLength(jobsAfter.length);
  });
});
