/**
 * One end-to-end HTTP scenario run on each Storage adapter (the in-memory reference and
 * SQLite in memory), so the app's behaviour does not depend on the adapter.
 */
import { describe, expect, it } from "vitest";
import { appSetupOn, STORAGE_ADAPTERS } from "./helpers/adapters.js";
import { KEYS, PASSWORD } from "./helpers/app.js";
import { snapshot } from "./helpers/snapshot.js";

describe.each(STORAGE_ADAPTERS)("HTTP scenario on %s storage", (_name, make) => {
  const setup = appSetupOn(make);

  it("logs in, discovers, and runs every generic operation", async () => {
    const t = await setup();
    const login = await t.call("POST", "/api/v1/auth", { json: { username: "alice", password: PASSWORD } });
    expect(login.status).toBe(200);
    const { api_key: key } = (await login.json()) as { api_key: string };

    expect(await (await t.call("GET", "/api/v1/", { key })).json()).toEqual({ flocks: [{ identifier: "alpha", name: "Alpha Society" }] });

    const ada = (await (await t.call("POST", "/api/v1/alpha/person/", { key, json: { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] } })).json()) as Record<string, any>;
    const id = (ada.uri as string).split("/")[3]!;
    const member = await t.call("POST", "/api/v1/alpha/membership", { key, json: { member: ada.uri, membership_number: "7" } });
    expect(member.status).toBe(201);
    expect(((await member.json()) as Record<string, any>).data.member).toEqual({ display_value: "Ada Lovelace", ref: ada.uri });

    const filtered = (await (await t.call("GET", "/api/v1/alpha/person/?email__startswithi=ADA@&limit=1", { key })).json()) as Record<string, any>;
    expect(filtered).toMatchObject({ total: 1, page_size: 1, formatted_results: [] });
    expect((await t.call("GET", "/api/v1/alpha/person/?email=ada@example.org", { key }).then((r) => r.json())) as object).toMatchObject({ total: 0 });

    t.clock.advance(1000);
    expect(await (await t.call("PATCH", `/api/v1/alpha/person/${id}`, { key, json: { last_name: "King" } })).json()).toMatchObject({ last_name: "King", formatted_name: "Ada King" });
    expect(await (await t.call("GET", `/api/v1/alpha/person/${id}/display/`, { key })).json()).toEqual({ display_value: "Ada King" });
    expect((await t.call("POST", `/api/v1/alpha/person/${id}/touch`, { key })).status).toBe(200);
    expect(await (await t.call("POST", `/api/v1/alpha/person/${id}/recalc?force=1`, { key })).json()).toEqual({ status: "OK", force: true });

    const form = new FormData();
    form.set("photo", new File([new Uint8Array([137, 80, 78, 71])], "ada.png", { type: "image/png" }));
    const up = (await (await t.call("PUT", `/api/v1/alpha/person/${id}/`, { key, body: form })).json()) as Record<string, any>;
    const photo = await t.call("GET", up.updates.photo[0], { key });
    expect(photo.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));

    expect(((await (await t.call("DELETE", `/api/v1/alpha/person/${id}/`, { key })).json()) as Record<string, any>).meta.state).toBe("deleted");
    const types = ((await (await t.call("GET", "/api/v1/alpha/", { key })).json()) as Record<string, any>).resource_type;
    expect(types).toEqual([
      { name: "data_event", count: 2, last_modified: expect.any(String) },
      { name: "membership", count: 1, last_modified: expect.any(String) },
      { name: "person", count: 0, last_modified: "2026-01-15T10:00:01.000000" },
    ]);
    expect((await t.call("POST", `/api/v1/alpha/person/${id}/restore/`, { key })).status).toBe(200);
    expect((await t.call("PUT", `/api/v1/alpha/person/${id}/obfuscate/`, { key })).status).toBe(200);
  });

  it("refuses bad and foreign requests without changing anything", async () => {
    const t = await setup();
    const beta = await t.engine.create("beta", "journal", { title: "b" });
    const before = await snapshot(t.storage);
    const key = KEYS.alice;
    const statuses = [
      (await t.call("PUT", `/api/v1/beta/journal/${beta.id}/`, { key, json: { title: "x" } })).status,
      (await t.call("PUT", `/api/v1/alpha/journal/${beta.id}/`, { key, json: { title: "x" } })).status,
      (await t.call("DELETE", `/api/v1/alpha/journal/${beta.id}/`, { key })).status,
      (await t.call("POST", "/api/v1/alpha/journal/", { key, body: "[1]", headers: { "content-type": "application/json" } })).status,
      (await t.call("GET", "/api/v1/alpha/journal/?title__foo=1", { key })).status,
      (await t.call("GET", "/api/v1/alpha/journal/?page_size=1501", { key })).status,
      (await t.call("GET", "/api/v1/alpha/journal/?title=%00%F0%9F%90%91", { key })).status,
    ];
    expect(statuses).toEqual([403, 404, 404, 400, 400, 400, 200]);
    expect(await snapshot(t.storage)).toBe(before);
  });
});
