/**
 * What the console's safe editing and first run stand on (issue 25): the record's version
 * as ETag, updates checked against it with If-Match, and the flock's types listed with
 * empty ones at count 0.
 */
import { DEFAULT_RESOURCE_TYPES } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed } from "./helpers/app.js";

describe("record versions: ETag and If-Match", () => {
  it("answers the version as ETag, and applies an If-Match update only at that version", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const path = `/api/v1/alpha/person/${id}/`;
    const first = await t.call("GET", path, { key: KEYS.alice });
    expect(first.headers.get("etag")).toBe('"1"');
    // Twice: the second answer comes from the response cache and carries the tag too.
    expect((await t.call("GET", path, { key: KEYS.alice })).headers.get("etag")).toBe('"1"');

    const ok = await t.call("PUT", path, { key: KEYS.alice, json: { last_name: "Lovelace" }, headers: { "if-match": '"1"' } });
    expect(ok.status).toBe(200);
    const after = await t.call("GET", path, { key: KEYS.alice });
    expect(after.headers.get("etag")).toBe('"2"');

    // Another client wrote since version 1 was read: refused, nothing written.
    const stale = await t.call("PUT", path, { key: KEYS.alice, json: { first_name: "Augusta" }, headers: { "if-match": 'W/"1"' } });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: string; error_detail: string };
    expect(body.error).toBe("version conflict");
    expect(body.error_detail).toContain("version 2, not 1");
    expect((await t.engine.get("alpha", "person", id)).data.first_name).toBe("Ada");

    // Without If-Match (or with *) the update applies whatever the version, as before.
    expect((await t.call("PUT", path, { key: KEYS.alice, json: { first_name: "Augusta" }, headers: { "if-match": "*" } })).status).toBe(200);
    expect((await t.call("PUT", path, { key: KEYS.alice, json: { known_as: "Ada" } })).status).toBe(200);
    expect((await t.engine.get("alpha", "person", id)).version).toBe(4);
  });

  it.each([["7"], ['"x"'], ['"1", "2"'], ['"01"'], [""]])("refuses If-Match %j with 400, writing nothing", async (header) => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const res = await t.call("PUT", `/api/v1/alpha/person/${id}/`, { key: KEYS.alice, json: { first_name: "Bea" }, headers: { "if-match": header } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid If-Match");
    expect((await t.engine.get("alpha", "person", id)).version).toBe(1);
  });
});

describe("GET /api/v1/{flock}/?include_empty=true", () => {
  it("lists every served type, the empty ones at count 0 with no last change", async () => {
    const t = await createTestApp();
    await seed(t, "alpha", "journal", { title: "note" });
    const res = await t.call("GET", "/api/v1/alpha/?include_empty=true", { key: KEYS.alice });
    expect(res.status).toBe(200);
    const { resource_type: types } = (await res.json()) as { resource_type: { name: string; count: number; last_modified: string | null }[] };
    expect(types.map((x) => x.name)).toEqual([...DEFAULT_RESOURCE_TYPES].sort((a, b) => a.localeCompare(b)));
    expect(types.find((x) => x.name === "journal")).toMatchObject({ count: 1 });
    expect(types.find((x) => x.name === "journal")!.last_modified).toMatch(/^\d{4}-/);
    expect(types.find((x) => x.name === "person")).toEqual({ name: "person", count: 0, last_modified: null });
    // Without the flag: only the types holding records, as before.
    const held = (await (await t.call("GET", "/api/v1/alpha/", { key: KEYS.alice })).json()) as { resource_type: { name: string }[] };
    expect(held.resource_type.map((x) => x.name)).toEqual(["journal"]);
  });

  it("refuses a value other than true or false with 400", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/v1/alpha/?include_empty=yes", { key: KEYS.alice });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid include_empty");
  });
});
