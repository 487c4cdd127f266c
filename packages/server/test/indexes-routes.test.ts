/**
 * The value index's operator routes (`/api/v1/{flock}/_indexes/`): list, add, drop and reset
 * through the app, each refusal in the contract's v1 shape with its status, and the rows of one
 * flock kept apart from another's.
 */
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, type TestApp } from "./helpers/app.js";

type View = { type: string; field: string; status: string; source: string; flock: string; progress: number };

async function list(t: TestApp, flock = "alpha", key: string = KEYS.alice): Promise<View[]> {
  const res = await t.call("GET", `/api/v1/${flock}/_indexes/`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { indexes: View[] }).indexes;
}

async function refusal(res: Response, status: number, error: RegExp | string): Promise<string> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
  expect(body.error).toMatch(error);
  return body.error_detail as string;
}

describe("GET /api/v1/{flock}/_indexes/", () => {
  it("lists the defaults of every served type, by type and field", async () => {
    const t = await createTestApp();
    const views = await list(t);
    expect(views).toContainEqual({ type: "person", field: "email", status: "declared", source: "default", flock: "alpha", progress: 1 });
    expect(views).toContainEqual({ type: "membership", field: "start_date", status: "declared", source: "default", flock: "alpha", progress: 1 });
    const keys = views.map((v) => [v.type, v.field] as const);
    const byTypeThenField = (a: readonly [string, string], b: readonly [string, string]) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : 1);
    expect(keys).toEqual([...keys].sort(byTypeThenField));
    // Without and with the trailing slash.
    expect((await t.call("GET", "/api/v1/alpha/_indexes", { key: KEYS.alice })).status).toBe(200);
  });

  it("answers for a core key of the flock only", async () => {
    const t = await createTestApp();
    await refusal(await t.call("GET", "/api/v1/alpha/_indexes/"), 401, /./);
    await refusal(await t.call("GET", "/api/v1/alpha/_indexes/", { key: KEYS.bob }), 403, /./);
    await refusal(await t.call("GET", "/api/v1/alpha/_indexes/", { key: KEYS.member }), 403, /./);
    await refusal(await t.call("GET", "/api/v1/ghost/_indexes/", { key: KEYS.admin }), 404, /./);
    expect((await t.call("GET", "/api/v1/alpha/_indexes/", { key: KEYS.admin })).status).toBe(200);
  });
});

describe("PUT, DELETE and POST reset on /api/v1/{flock}/_indexes/{type}/{field}/", () => {
  it("adds, drops and resets one field in one flock", async () => {
    const t = await createTestApp();
    const put = await t.call("PUT", "/api/v1/alpha/_indexes/person/shoe_size/", { key: KEYS.alice });
    expect(put.status).toBe(200);
    const added = ((await put.json()) as { index: View }).index;
    expect(added).toMatchObject({ type: "person", field: "shoe_size", source: "operator", flock: "alpha" });
    expect(["building", "declared"]).toContain(added.status);
    expect((await list(t)).find((v) => v.type === "person" && v.field === "shoe_size")).toMatchObject({ source: "operator" });
    // Another flock keeps the defaults.
    expect((await list(t, "beta", KEYS.bob)).some((v) => v.field === "shoe_size")).toBe(false);

    const del = await t.call("DELETE", "/api/v1/alpha/_indexes/person/last_name/", { key: KEYS.alice });
    expect(del.status).toBe(200);
    expect(((await del.json()) as { index: View }).index).toMatchObject({ type: "person", field: "last_name", status: "dropped", source: "operator", flock: "alpha" });
    expect((await list(t)).find((v) => v.type === "person" && v.field === "last_name")).toMatchObject({ status: "dropped" });

    const reset = await t.call("POST", "/api/v1/alpha/_indexes/person/last_name/reset/", { key: KEYS.alice });
    expect(reset.status).toBe(200);
    // A dropped default is built again (the index worker's), and the defaults then rule.
    expect(await reset.json()).toEqual({ reset: true, index: { type: "person", field: "last_name", status: "building", source: "default", flock: "alpha", progress: 0 } });
    const resetAdded = await t.call("POST", "/api/v1/alpha/_indexes/person/shoe_size/reset", { key: KEYS.alice });
    expect(await resetAdded.json()).toEqual({ reset: true, index: null });
    const again = await t.call("POST", "/api/v1/alpha/_indexes/person/shoe_size/reset/", { key: KEYS.alice });
    expect(await again.json()).toEqual({ reset: false, index: null });
    expect((await list(t)).some((v) => v.field === "shoe_size")).toBe(false);
  });

  it("refuses bad input with the contract's statuses", async () => {
    const t = await createTestApp();
    // A field the service looks up itself.
    expect(await refusal(await t.call("DELETE", "/api/v1/alpha/_indexes/person/tags/", { key: KEYS.alice }), 400, "index needed")).toContain("'tags'");
    await refusal(await t.call("DELETE", "/api/v1/alpha/_indexes/booking/person_ref/", { key: KEYS.alice }), 400, "index needed");
    // Not a data field name.
    await refusal(await t.call("PUT", "/api/v1/alpha/_indexes/person/9lives/", { key: KEYS.alice }), 400, "bad field name");
    await refusal(await t.call("PUT", "/api/v1/alpha/_indexes/person/a-b/", { key: KEYS.alice }), 400, "bad field name");
    await refusal(await t.call("POST", "/api/v1/alpha/_indexes/person/a%20b/reset/", { key: KEYS.alice }), 400, "bad field name");
    // An unknown type or flock.
    await refusal(await t.call("PUT", "/api/v1/alpha/_indexes/spaceship/name/", { key: KEYS.alice }), 404, /./);
    await refusal(await t.call("DELETE", "/api/v1/alpha/_indexes/spaceship/name/", { key: KEYS.alice }), 404, /./);
    await refusal(await t.call("PUT", "/api/v1/ghost/_indexes/person/shoe_size/", { key: KEYS.admin }), 404, /./);
    // Keys without the flock.
    await refusal(await t.call("PUT", "/api/v1/alpha/_indexes/person/shoe_size/", { key: KEYS.bob }), 403, /./);
    await refusal(await t.call("DELETE", "/api/v1/alpha/_indexes/person/email/", { key: KEYS.member }), 403, /./);
    await refusal(await t.call("POST", "/api/v1/alpha/_indexes/person/email/reset/"), 401, /./);
    // Nothing changed by any of them.
    expect((await list(t)).find((v) => v.type === "person" && v.field === "email")).toMatchObject({ status: "declared", source: "default" });
    expect((await list(t)).some((v) => v.field === "shoe_size" || v.source !== "default")).toBe(false);
  });

  it("serves a type the config adds to the flock", async () => {
    const t = await createTestApp({ flockResourceTypes: { alpha: ["volunteer"] } });
    expect((await t.call("PUT", "/api/v1/alpha/_indexes/volunteer/skill/", { key: KEYS.alice })).status).toBe(200);
    expect((await list(t)).find((v) => v.type === "volunteer" && v.field === "skill")).toMatchObject({ source: "operator" });
    await refusal(await t.call("PUT", "/api/v1/beta/_indexes/volunteer/skill/", { key: KEYS.bob }), 404, /./);
  });
});
