/**
 * Issue 14, point 3: find (the documented matching order) and search (closest first, from
 * the index), on every adapter.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

async function people(t: TestApp) {
  const p = (data: Record<string, unknown>) => seed(t, "alpha", "person", data);
  const ada = await p({ title: "Countess", first_name: "Ada", last_name: "Lovelace", email: ["Ada@Example.org;home"], date_of_birth: "1815-12-10", postal_code: "SW1Y 4JH", telephone: ["020 7946 0000;work"] });
  const ada2 = await p({ first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-01", postal_code: "EC1A 1BB" });
  const ada3 = await p({ first_name: "ada", last_name: "LOVELACE", postal_code: "ec1a1bb" });
  const adam = await p({ first_name: "Adam", last_name: "Smith", email: ["adam@smith.example"] });
  const zoe = await p({ first_name: "Zoë", last_name: "Müller" });
  const acme = await seed(t, "alpha", "organisation", { name: "Acme Ltd", postal_code: "M1 1AA", email: ["info@acme.example;work"], domain: "acme.example" });
  await seed(t, "beta", "person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org"] });
  return { ada, ada2, ada3, adam, zoe, acme };
}

/** The URI of a person of flock alpha. */
const u = (id: string) => `/alpha/person/${id}/`;

describe.each(EVERY_ADAPTER)("find and search on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, body: (await res.json()) as any };
  };

  run("find/person follows the matching order: email, name + birth date, name + postal code, title + postal code", async () => {
    const t = await setup();
    const w = await people(t);
    const byEmail = await get(t, "/api/v1/alpha/find/person/?email=ada@example.org&first_name=Nobody&last_name=X&date_of_birth=2000-01-01");
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toMatchObject({ matched_by: "email", count: 1, uri: `/alpha/person/${w.ada}/`, resource: "person", data: { first_name: "Ada" } });
    // No email match: the next rule that matches wins.
    const byBirth = await get(t, "/api/v2/find/person/alpha?email=none@example.org&first_name=ada&last_name=lovelace&date_of_birth=1990-01-01");
    expect(byBirth.body).toMatchObject({ matched_by: "name_and_date_of_birth", uri: `/alpha/person/${w.ada2}/` });
    // Postal codes compare without spaces and case: two people match, so no guess...
    const several = await get(t, "/api/v2/find/person/alpha/?first_name=Ada&last_name=Lovelace&postal_code=EC1A 1BB");
    expect(several.status).toBe(409);
    expect(several.body.title).toBe("several matches");
    expect(several.body.description).toContain(`/alpha/person/${w.ada2}/`);
    expect(several.body.description).toContain(`/alpha/person/${w.ada3}/`);
    // ... unless asked to take the first (the earliest created).
    const first = await get(t, "/api/v1/alpha/find/person?first_name=Ada&last_name=Lovelace&postal_code=EC1A1BB&take_first_if_multiple=true");
    expect(first.body).toMatchObject({ matched_by: "name_and_postal_code", count: 2, uri: `/alpha/person/${w.ada2}/` });
    const byTitle = await get(t, "/api/v1/alpha/find/person?title=countess&last_name=Lovelace&postal_code=sw1y4jh");
    expect(byTitle.body).toMatchObject({ matched_by: "title_and_postal_code", uri: `/alpha/person/${w.ada}/` });
    const none = await get(t, "/api/v1/alpha/find/person?email=nobody@example.org");
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("no match");
  });

  run("find/organisation: name with postal code, exact name, email, domain", async () => {
    const t = await setup();
    const w = await people(t);
    const uri = `/alpha/organisation/${w.acme}/`;
    for (const [query, rule] of [
      ["name=acme ltd&postal_code=m11aa", "name_and_postal_code"],
      ["name=ACME LTD", "name"],
      ["email=info@acme.example", "email"],
      ["domain=acme.example", "domain"],
    ]) {
      const found = await get(t, `/api/v1/alpha/find/organisation/?${query}`);
      expect(found.body, query).toMatchObject({ matched_by: rule, uri });
    }
    expect((await get(t, "/api/v1/alpha/find/organisation?name=Acme")).status).toBe(404); // exact name only
  });

  run("search ranks closest first, folds accents and case, spans persons and organisations", async () => {
    const t = await setup();
    const w = await people(t);
    const res = await get(t, "/search/v2/alpha?q=ada lovelace");
    expect(res.status).toBe(200);
    expect(res.body.q).toBe("ada lovelace");
    // `id` is the record URI (spec v2-gateway section 0), the same as `uri`.
    expect(res.body.results.map((r: any) => r.id).sort()).toEqual([w.ada, w.ada2, w.ada3].map(u).sort());
    for (const r of res.body.results) expect(r.id).toBe(r.uri);
    expect(Object.keys(res.body.results[0]).sort()).toEqual(["display_value", "distance", "id", "primary_email", "primary_telephone", "resource", "uri"]);
    expect(res.body.results[0]).toMatchObject({ distance: 0, resource: "person" });
    const distances = res.body.results.map((r: any) => r.distance);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    const countess = res.body.results.find((r: any) => r.id === u(w.ada));
    expect(countess).toMatchObject({ display_value: "Countess Ada Lovelace", primary_email: "Ada@Example.org", primary_telephone: "020 7946 0000" });
    expect((await get(t, "/search/v2/alpha/global/?q=ZOE mull")).body.results.map((r: any) => r.id)).toEqual([u(w.zoe)]);
    expect((await get(t, "/search/v2/alpha?q=acme")).body.results).toEqual([expect.objectContaining({ id: `/alpha/organisation/${w.acme}/`, resource: "organisation" })]);
    expect((await get(t, "/search/v2/alpha?q=ad&limit=2")).body.results).toHaveLength(2);
    // The index follows writes at once.
    await t.engine.update("alpha", "person", w.adam, { last_name: "Jones" });
    expect((await get(t, "/search/v2/alpha?q=adam jones")).body.results.map((r: any) => r.id)).toEqual([u(w.adam)]);
    await t.engine.delete("alpha", "person", w.adam);
    expect((await get(t, "/search/v2/alpha?q=adam")).body.results).toEqual([]);
  });

  run("search/person takes the find parameters", async () => {
    const t = await setup();
    const w = await people(t);
    const res = await get(t, "/search/v2/alpha/person?first_name=Ada&last_name=Lovelace&postal_code=EC1A1BB");
    expect(res.body.matched_by).toBe("name_and_postal_code");
    expect(res.body.results.map((r: any) => r.id)).toEqual([u(w.ada2), u(w.ada3)]);
    expect((await get(t, "/search/v2/alpha/person?email=nobody@example.org")).body).toEqual({ matched_by: null, results: [] });
  });

  run("bad input, foreign flocks and self-service tokens", async () => {
    const t = await setup();
    await people(t);
    const before = await snapshot(t.storage);
    const cases: [string, number, string?][] = [
      ["/api/v1/alpha/find/person/", 400, "give email"],
      ["/api/v1/alpha/find/person?first_name=Ada", 400, "give email"],
      ["/api/v1/alpha/find/person?date_of_birth=10/12/1815&first_name=a&last_name=b", 400, "date_of_birth must be a date"],
      ["/api/v1/alpha/find/person?email=a@b.c&take_first_if_multiple=perhaps", 400, "take_first_if_multiple"],
      ["/api/v1/alpha/find/widget?name=x", 404],
      ["/api/v2/find/organisation/alpha", 400, "give name"],
      ["/search/v2/alpha", 400, "q is required"],
      ["/search/v2/alpha?q=%20!!", 400, "at least one letter or digit"],
      ["/search/v2/alpha?q=" + "x".repeat(201), 400, "q must be at most"],
      ["/search/v2/alpha?q=ada&limit=0", 400, "limit"],
      ["/search/v2/alpha?q=ada&limit=101", 400, "limit"],
      ["/search/v2/alpha/person", 400, "give email"],
    ];
    for (const [path, status, says] of cases) {
      const res = await get(t, path);
      expect(res.status, path).toBe(status);
      if (says) expect(JSON.stringify(res.body), path).toContain(says);
    }
    // Errors on the gateway paths take the v2 shape.
    expect(Object.keys((await get(t, "/search/v2/alpha")).body).sort()).toEqual(["description", "error", "title", "type"]);
    for (const path of ["/search/v2/alpha?q=ada", "/search/v2/alpha/global?q=ada", "/search/v2/alpha/person?email=ada@example.org", "/api/v1/alpha/find/person?email=ada@example.org", "/api/v2/find/person/alpha?email=ada@example.org"]) {
      expect((await get(t, path, KEYS.bob)).status, path).toBe(403);
      expect((await get(t, path, KEYS.member)).status, path).toBe(403);
      expect((await t.call("GET", path)).status, path).toBe(401);
      expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status, path).toBe(404);
    }
    expect(await snapshot(t.storage)).toBe(before);
  });
});
