/**
 * Record data holding a lone surrogate (`"\ud800"`, which JSON allows and JSON.stringify
 * writes escaped) is stored and read back as sent on every adapter: create, get, a filtered
 * and sorted list, the group count and distinct values (PostgreSQL's field reads once
 * failed on it with a 500).
 */
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

describe.each(EVERY_ADAPTER)("a lone surrogate in record data (%s)", (name) => {
  const setup = setupOn(name);

  it.skipIf(!adapterAvailable(name))("is stored and read back as sent, never a 5xx", async () => {
    const t = await setup();
    const key = KEYS.alice;
    // The body as a client sends it: the escape itself, not a character.
    const body = '{"title": "x\\ud800y", "notes": ["\\udfff", 1], "kind": "minutes"}';
    const created = await t.call("POST", "/api/v2/alpha/journal/", { key, body, headers: { "content-type": "application/json" } });
    expect(created.status).toBe(201);
    const { uri } = (await created.json()) as { uri: string };
    await t.call("POST", "/api/v2/alpha/journal/", { key, json: { title: "plain", kind: "minutes" } });

    const got = await t.call("GET", `/api/v2${uri}`, { key });
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ data: { title: "x\ud800y", notes: ["\udfff", 1] } });

    const listed = await t.call("GET", "/api/v2/alpha/journal/?title__startswith=x&sort=title", { key });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(uri);
    const groups = await t.call("GET", "/api/v2/alpha/groupby/journal/title/count", { key });
    expect(groups.status).toBe(200);
    expect(((await groups.json()) as { results: { value: unknown }[] }).results.map((g) => g.value).sort()).toEqual(["plain", "x\ud800y"]);
    const distinct = await t.call("GET", "/api/v2/alpha/distinct/journal/notes", { key });
    expect(distinct.status).toBe(200);
  });
});
