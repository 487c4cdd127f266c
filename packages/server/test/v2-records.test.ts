/**
 * The spec's versioning table: the v2 record paths serve the same records through the same
 * handlers as v1, accept `__andlist`/`__orlist` (400 on v1, naming the modifier) and answer
 * errors as `{title, description}`.
 */
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { createV2TestApp } from "./helpers/v2-app.js";

describe("v2 record paths", () => {
  it("create, get, list, update (PUT and PATCH), delete and restore, as on v1", async () => {
    const t = await createV2TestApp();
    const created = await t.call("POST", "/api/v2/alpha/person/", { key: KEYS.alice, json: { first_name: "Ada", last_name: "Lovelace" } });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, any>;
    expect(body).toMatchObject({ bucket: "alpha", resource: "person", display_value: "Ada Lovelace", meta: { state: "updated" } });
    const id = (body.uri as string).split("/")[3]!;

    const v1 = await (await t.call("GET", `/api/v1/alpha/person/${id}/`, { key: KEYS.alice })).json();
    for (const path of [`/api/v2/alpha/person/${id}/`, `/api/v2/alpha/person/${id}`]) {
      const res = await t.call("GET", path, { key: KEYS.alice });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(v1);
    }

    expect(await (await t.call("PUT", `/api/v2/alpha/person/${id}/`, { key: KEYS.alice, json: { title: "Countess" } })).json()).toMatchObject({
      title: "Countess",
      formatted_name: "Countess Ada Lovelace",
    });
    expect(await (await t.call("PATCH", `/api/v2/alpha/person/${id}`, { key: KEYS.alice, json: { last_name: "King" } })).json()).toMatchObject({
      last_name: "King",
    });

    const list = (await (await t.call("GET", "/api/v2/alpha/person/?last_name=King", { key: KEYS.alice })).json()) as Record<string, any>;
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 25, pages: 1 });
    expect(list.results[0].id).toBe(id);

    const deleted = (await (await t.call("DELETE", `/api/v2/alpha/person/${id}/`, { key: KEYS.alice })).json()) as Record<string, any>;
    expect(deleted.meta.state).toBe("deleted");
    expect(await (await t.call("GET", "/api/v2/alpha/person/", { key: KEYS.alice })).json()).toMatchObject({ total: 0 });
    expect((await t.call("POST", `/api/v2/alpha/person/${id}/restore/`, { key: KEYS.alice })).status).toBe(200);
    expect(await (await t.call("GET", "/api/v2/alpha/person/", { key: KEYS.alice })).json()).toMatchObject({ total: 1 });
  });

  it.each([
    { name: "andlist: has all", query: "tags__andlist=a,b", expected: ["both"] },
    { name: "orlist: has any", query: "tags__orlist=a, c", expected: ["both", "only-a", "only-c"] },
    { name: "orlist with blanks dropped", query: "tags__orlist=,b,", expected: ["both"] },
  ])("v2 list accepts $name", async ({ query, expected }) => {
    const t = await createV2TestApp();
    for (const [name, tags] of [["both", ["a", "b"]], ["only-a", ["a"]], ["only-c", ["c"]], ["none", null]] as const) {
      await t.engine.create("alpha", "journal", { title: name, tags });
    }
    const res = await t.call("GET", `/api/v2/alpha/journal/?${query}`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { data: { title: string } }[] };
    expect(body.results.map((r) => r.data.title)).toEqual(expected);
  });

  it.each(["andlist", "orlist"])("v1 refuses __%s with 400 naming the modifier", async (modifier) => {
    const t = await createV2TestApp();
    const res = await t.call("GET", `/api/v1/alpha/journal/?tags__${modifier}=a,b`, { key: KEYS.alice });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_detail: string };
    expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
    expect(`${body.error} ${body.error_detail}`).toContain(modifier);
  });

  it.each([
    { name: "no key", path: "/api/v2/alpha/person/", key: undefined, status: 401 },
    { name: "another tenant's flock", path: "/api/v2/beta/person/", key: KEYS.alice, status: 403 },
    { name: "a self-service token on a core path", path: "/api/v2/alpha/person/", key: KEYS.member, status: 403 },
    { name: "an unknown type", path: "/api/v2/alpha/nonsense/", key: KEYS.alice, status: 404 },
    { name: "an unknown record", path: "/api/v2/alpha/person/0123456789abcdef01234567/", key: KEYS.alice, status: 404 },
    { name: "a bad page_size", path: "/api/v2/alpha/person/?page_size=0", key: KEYS.alice, status: 400 },
    { name: "an unknown modifier", path: "/api/v2/alpha/person/?first_name__bogus=x", key: KEYS.alice, status: 400 },
  ])("answers $status in the v2 shape for $name", async ({ path, key, status }) => {
    const t = await createV2TestApp();
    const res = await t.call("GET", path, { key });
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["description", "error", "title", "type"]);
    expect(typeof body.title).toBe("string");
    expect(typeof body.description).toBe("string");
  });

  it("answers a restore of a live record with 409 and an unknown field with 400 naming it, in the v2 shape", async () => {
    const t = await createV2TestApp();
    const created = await t.call("POST", "/api/v2/alpha/person/", { key: KEYS.alice, json: { first_name: "Ada" } });
    const id = (((await created.json()) as { uri: string }).uri).split("/")[3]!;
    const before = await (await t.call("GET", `/api/v2/alpha/person/${id}/`, { key: KEYS.alice })).json();

    const restore = await t.call("POST", `/api/v2/alpha/person/${id}/restore/`, { key: KEYS.alice });
    expect(restore.status).toBe(409);
    const restoreBody = (await restore.json()) as Record<string, unknown>;
    expect(Object.keys(restoreBody).sort()).toEqual(["description", "error", "title", "type"]);

    const put = await t.call("PUT", `/api/v2/alpha/person/${id}/`, { key: KEYS.alice, json: { shoe: 1 } });
    expect(put.status).toBe(400);
    const putBody = (await put.json()) as Record<string, unknown>;
    expect(Object.keys(putBody).sort()).toEqual(["description", "error", "title", "type"]);
    expect(putBody.description).toContain("shoe");

    expect(await (await t.call("GET", `/api/v2/alpha/person/${id}/`, { key: KEYS.alice })).json()).toEqual(before);
  });

  it("answers invalid JSON on create with a v2 400 and stores nothing", async () => {
    const t = await createV2TestApp();
    const res = await t.call("POST", "/api/v2/alpha/person/", { key: KEYS.alice, body: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ title: "invalid JSON" });
    expect((await t.call("GET", "/api/v2/alpha/person/", { key: KEYS.alice }).then((r) => r.json())) as object).toMatchObject({ total: 0 });
  });
});
