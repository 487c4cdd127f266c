/**
 * Issue 21, point 3 (P1): `form` is a default type, and a form's responses are listed the
 * way AutoCertificate reads them (`GET /api/v1|v2/{flock}/form/{uid}/responses/?limit=50`):
 * newest first, references expanded, list filters and paging, on every adapter.
 */
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

/** A form with five responses (one deleted), another form with one, and a sheep_form with one. */
async function world(t: TestApp) {
  const ada = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
  const grace = await seed(t, "alpha", "person", { first_name: "Grace", last_name: "Hopper" });
  const form = await seed(t, "alpha", "form", { name: "Certificate application" });
  const other = await seed(t, "alpha", "form", { name: "Other form" });
  const sheep = await seed(t, "alpha", "sheep_form", { name: "Legacy form" });
  const formUri = `/alpha/form/${form}/`;
  const responses: string[] = [];
  for (const [i, who] of [ada, grace, ada, grace, ada].entries()) {
    t.clock.advance(60_000);
    responses.push(
      await seed(t, "alpha", "form_response", {
        form_ref: formUri,
        contact_ref: `/alpha/person/${who}/`,
        context_ref: [`/alpha/person/${who}/`, "/alpha/journal/000000000000000000000000/"],
        status: i === 3 ? "draft" : "submitted",
        submission_date: `2026-01-0${i + 1}`,
        overall_feedback: `feedback ${i}`,
        response: { q1: `answer ${i}` },
      }),
    );
  }
  await t.engine.delete("alpha", "form_response", responses[4]!);
  await seed(t, "alpha", "form_response", { form_ref: `/alpha/form/${other}/`, contact_ref: `/alpha/person/${ada}/`, status: "submitted" });
  await seed(t, "alpha", "form_response", { form_ref: `/alpha/sheep_form/${sheep}/`, contact_ref: `/alpha/person/${grace}/`, status: "submitted" });
  return { ada, grace, form, other, sheep, formUri, responses };
}

describe.each(EVERY_ADAPTER)("form responses on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  const get = async (t: TestApp, path: string, key: string = KEYS.alice) => {
    const res = await t.call("GET", path, { key });
    return { status: res.status, body: (await res.json()) as any };
  };

  run("form is a default type: created, read and listed through the generic paths", async () => {
    const t = await setup();
    const created = await t.call("POST", "/api/v1/alpha/form/", { key: KEYS.alice, json: { name: "Survey" } });
    expect(created.status).toBe(201);
    const uri = ((await created.json()) as any).uri as string;
    expect(uri).toMatch(/^\/alpha\/form\/[0-9a-f]{24}\/$/);
    expect((await get(t, `/api/v2${uri}`)).body.data).toMatchObject({ name: "Survey" });
  });

  run("lists the form's live responses newest first, references expanded, on both surfaces and slashes", async () => {
    const t = await setup();
    const w = await world(t);
    for (const prefix of ["/api/v1", "/api/v2"]) {
      for (const slash of ["/", ""]) {
        const res = await get(t, `${prefix}/alpha/form/${w.form}/responses${slash}?limit=50`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ grand_total: 4, total: 4, page: 1, page_size: 50, pages: 1, links: [], formatted_results: [] });
        expect(res.body.results.map((r: any) => r.id)).toEqual([w.responses[3], w.responses[2], w.responses[1], w.responses[0]]);
        const first = res.body.results[0];
        expect(Object.keys(first).sort()).toEqual(["_id", "bucket", "created", "data", "display_value", "id", "last_updated", "links", "permissions", "resource", "state", "uri"]);
        expect(first).toMatchObject({ resource: "form_response", bucket: "alpha", state: "updated", uri: `/alpha/form_response/${w.responses[3]}/` });
        expect(first.data.contact_ref).toEqual({ display_value: "Grace Hopper", ref: `/alpha/person/${w.grace}/` });
        expect(first.data.form_ref).toEqual({ display_value: expect.any(String), ref: w.formUri });
        // Every URI of an existing record in context_ref is expanded; one to no record stays a URI.
        expect(first.data.context_ref).toEqual([{ display_value: "Grace Hopper", ref: `/alpha/person/${w.grace}/` }, "/alpha/journal/000000000000000000000000/"]);
        expect(first.data).toMatchObject({ status: "draft", submission_date: "2026-01-04", overall_feedback: "feedback 3", response: { q1: "answer 3" } });
      }
    }
  });

  run("takes the list filters and pages newest first", async () => {
    const t = await setup();
    const w = await world(t);
    const base = `/api/v1/alpha/form/${w.form}/responses/`;
    const submitted = await get(t, `${base}?status=submitted`);
    expect(submitted.body.results.map((r: any) => r.id)).toEqual([w.responses[2], w.responses[1], w.responses[0]]);
    const since = await get(t, `${base}?submission_date__gte=2026-01-02&status=submitted`);
    expect(since.body.results.map((r: any) => r.id)).toEqual([w.responses[2], w.responses[1]]);
    const pages = await Promise.all([1, 2, 3].map((p) => get(t, `${base}?page_size=3&page=${p}`)));
    expect(pages.map((p) => p.body.results.map((r: any) => r.id))).toEqual([[w.responses[3], w.responses[2], w.responses[1]], [w.responses[0]], []]);
    expect(pages[0]!.body).toMatchObject({ total: 4, pages: 2, page_size: 3 });
    // The same form's responses through sheep_form: only that form's.
    const sheep = await get(t, `/api/v2/alpha/sheep_form/${w.sheep}/responses`);
    expect(sheep.body.total).toBe(1);
    expect(sheep.body.results[0].data.contact_ref.display_value).toBe("Grace Hopper");
    // A default page size of 25.
    expect((await get(t, base)).body.page_size).toBe(25);
  });

  run("refuses foreign keys and member tokens before reading, bad input with 400, unknown and deleted forms with 404", async () => {
    const t = await setup();
    const w = await world(t);
    const path = `/api/v1/alpha/form/${w.form}/responses/`;
    // Positive control first.
    expect((await get(t, path)).status).toBe(200);
    const before = await snapshot(t.storage);
    expect((await get(t, path, KEYS.bob)).status).toBe(403);
    expect((await get(t, path, KEYS.member)).status).toBe(403);
    expect((await t.call("GET", path)).status).toBe(401);
    expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status).toBe(404);
    for (const [query, says] of [
      ["page_size=abc", "page_size"],
      ["page_size=0", "page_size"],
      ["limit=2000", "limit"],
      ["status__nope=x", "nope"],
      ["mode=OR&status=draft", "mode"],
    ] as const) {
      const res = await get(t, `${path}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBeTypeOf("string");
      expect(JSON.stringify(res.body), query).toContain(says);
    }
    const v2 = await get(t, `/api/v2/alpha/form/${w.form}/responses/?page_size=abc`);
    expect(v2.status).toBe(400);
    expect(Object.keys(v2.body).sort()).toEqual(["description", "error", "title", "type"]);
    expect(v2.body.type).toBe("bad_request");
    expect(await snapshot(t.storage)).toBe(before);
    // Unknown form, a person's id, a bad id, a sheep_form id on the form path: 404.
    for (const id of ["0".repeat(24), w.ada, "not-an-id", w.sheep]) {
      expect((await get(t, `/api/v1/alpha/form/${id}/responses/`)).status, id).toBe(404);
    }
    await t.engine.delete("alpha", "form", w.form);
    const gone = await get(t, `/api/v2/alpha/form/${w.form}/responses/`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ type: "not_found", error: "not found" });
    expect((await get(t, `/api/v1/alpha/form/${w.form}/responses/`)).body.error).toBe("not found");
    // A form of another flock is not found through this one.
    const beta = await seed(t, "beta", "form", { name: "Beta form" });
    expect((await get(t, `/api/v1/alpha/form/${beta}/responses/`)).status).toBe(404);
  });
});
