/**
 * The spec's generic record operations table, for several resource types, plus the
 * contract's compatibility list (trailing slash, PATCH, limit, formatted_results, display
 * on v1, references expanded in the single shape and URIs in lists).
 */
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";

const key = KEYS.alice;
const base = "/api/v1/alpha";

async function json(res: Response): Promise<Record<string, any>> {
  return (await res.json()) as Record<string, any>;
}

async function create(t: TestApp, type: string, data: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.call("POST", `${base}/${type}/`, { key, json: data });
  expect(res.status).toBe(201);
  return json(res);
}

const idOf = (envelope: Record<string, any>) => (envelope.uri as string).split("/")[3]!;

describe.each([
  ["person", { first_name: "Ada", last_name: "Lovelace" }, { first_name: "Augusta" }],
  ["journal", { title: "Minutes", body: "We met." }, { title: "Minutes (final)" }],
  ["membership", { membership_number: "M-1", start_date: "2026-01-01" }, { membership_number: "M-2" }],
])("generic operations on %s", (type, input, change) => {
  it("POST creates: 201 with the record envelope, state updated", async () => {
    const t = await createTestApp();
    const body = await create(t, type, input);
    expect(Object.keys(body).sort()).toEqual(["bucket", "data", "display_value", "links", "meta", "resource", "uri"]);
    expect(body).toMatchObject({
      bucket: "alpha",
      resource: type,
      links: [],
      meta: { created: "2026-01-15T10:00:00.000000", last_updated: "2026-01-15T10:00:00.000000", state: "updated" },
    });
    expect(body.uri).toMatch(new RegExp(`^/alpha/${type}/[0-9a-f]{24}/$`));
    expect(body.data).toMatchObject(input);
    expect(typeof body.display_value).toBe("string");
  });

  it("GET lists in the paged wrapper (with formatted_results)", async () => {
    const t = await createTestApp();
    await create(t, type, input);
    await create(t, type, input);
    const res = await t.call("GET", `${base}/${type}/`, { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ grand_total: 2, total: 2, page: 1, page_size: 25, pages: 1, links: [], formatted_results: [] });
    expect(body.results).toHaveLength(2);
    expect(Object.keys(body.results[0]).sort()).toEqual(
      ["_id", "bucket", "created", "data", "display_value", "id", "last_updated", "links", "permissions", "resource", "state", "uri"],
    );
    expect(body.results[0]).toMatchObject({ _id: null, bucket: "alpha", resource: type, state: "updated" });
  });

  it("GET one answers the envelope; PUT and PATCH answer the changed fields", async () => {
    const t = await createTestApp();
    const id = idOf(await create(t, type, input));
    const got = await t.call("GET", `${base}/${type}/${id}/`, { key });
    expect(got.status).toBe(200);
    expect((await json(got)).data).toMatchObject(input);

    for (const method of ["PUT", "PATCH"]) {
      t.clock.advance(1000);
      const res = await t.call(method, `${base}/${type}/${id}/`, { key, json: change });
      expect(res.status, method).toBe(200);
      const changed = await json(res);
      if (method === "PUT") expect(changed).toMatchObject(change);
      else expect(changed).toEqual({}); // the same change again changes nothing
    }
    const after = await json(await t.call("GET", `${base}/${type}/${id}`, { key }));
    expect(after.data).toMatchObject(change);
    expect(after.meta.last_updated).toBe("2026-01-15T10:00:01.000000");
  });

  it("DELETE answers the envelope in state deleted; the record leaves default lists; restore brings it back", async () => {
    const t = await createTestApp();
    const id = idOf(await create(t, type, input));
    const del = await t.call("DELETE", `${base}/${type}/${id}/`, { key });
    expect(del.status).toBe(200);
    expect((await json(del)).meta.state).toBe("deleted");

    const list = async (q: string) => (await json(await t.call("GET", `${base}/${type}/${q}`, { key }))).total;
    expect(await list("")).toBe(0);
    expect(await list("?include_deleted=Y")).toBe(1);
    expect(await list("?include_deleted=Y&state=deleted")).toBe(1);

    const restored = await t.call("POST", `${base}/${type}/${id}/restore/`, { key });
    expect(restored.status).toBe(200);
    expect((await json(restored)).meta.state).toBe("updated");
    expect(await list("")).toBe(1);

    const again = await t.call("POST", `${base}/${type}/${id}/restore/`, { key });
    expect(again.status).toBe(409);
    expect(Object.keys(await json(again)).sort()).toEqual(["error", "error_detail"]);
  });

  it("touch moves last_updated to now", async () => {
    const t = await createTestApp();
    const id = idOf(await create(t, type, input));
    t.clock.advance(5000);
    const res = await t.call("POST", `${base}/${type}/${id}/touch/`, { key });
    expect(res.status).toBe(200);
    expect((await json(res)).meta).toMatchObject({ created: "2026-01-15T10:00:00.000000", last_updated: "2026-01-15T10:00:05.000000" });
  });

  it.each([
    ["no force", "", undefined, false],
    ["query force=true", "?force=true", undefined, true],
    ["query force=Y", "?force=Y", undefined, true],
    ["JSON force true", "", { force: true }, true],
    ["JSON force false over query true", "?force=true", { force: false }, false],
  ])("recalc with %s answers {status: OK, force}", async (_name, query, body, force) => {
    const t = await createTestApp();
    const id = idOf(await create(t, type, input));
    const res = await t.call("POST", `${base}/${type}/${id}/recalc/${query}`, { key, json: body });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "OK", force });
  });

  it("display (v1 path) answers the display value", async () => {
    const t = await createTestApp();
    const envelope = await create(t, type, input);
    for (const suffix of ["display", "display/"]) {
      const res = await t.call("GET", `${base}/${type}/${idOf(envelope)}/${suffix}`, { key });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ display_value: envelope.display_value });
    }
  });

  it.each(["PUT", "POST"])("obfuscate (%s) answers the envelope and keeps the record", async (method) => {
    const t = await createTestApp();
    const id = idOf(await create(t, type, input));
    const res = await t.call(method, `${base}/${type}/${id}/obfuscate/`, { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.uri).toBe(`/alpha/${type}/${id}/`);
    expect((await t.call("GET", `${base}/${type}/${id}/`, { key })).status).toBe(200);
  });
});

describe("person specifics", () => {
  it("obfuscate clears the personal data", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
    await t.call("PUT", `${base}/person/${id}/obfuscate/`, { key });
    const body = await json(await t.call("GET", `${base}/person/${id}/`, { key }));
    expect(JSON.stringify(body.data)).not.toContain("Lovelace");
    expect(JSON.stringify(body.data)).not.toContain("ada@example.org");
  });

  it("PUT answers system-generated fields that changed", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const res = await t.call("PUT", `${base}/person/${id}/`, { key, json: { last_name: "King" } });
    expect(await json(res)).toMatchObject({ last_name: "King", formatted_name: "Ada King" });
  });

  it("rejects unknown person fields on create and update with a 400 naming them", async () => {
    const t = await createTestApp();
    const res = await t.call("POST", `${base}/person/`, { key, json: { first_name: "Ada", shoe_size: 7 } });
    expect(res.status).toBe(400);
    expect((await json(res)).error_detail).toContain("shoe_size");
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const put = await t.call("PUT", `${base}/person/${id}/`, { key, json: { shoe_size: 7 } });
    expect(put.status).toBe(400);
  });

  it("list filters on person fields, refusing unknown ones", async () => {
    const t = await createTestApp();
    await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    await seed(t, "alpha", "person", { first_name: "Bea", last_name: "Lovelace" });
    const ok = await json(await t.call("GET", `${base}/person/?first_name=Ada`, { key }));
    expect(ok.total).toBe(1);
    const starts = await json(await t.call("GET", `${base}/person/?first_name__startswithi=b&mode=OR&last_name=Nobody`, { key }));
    expect(starts.total).toBe(1);
    const bad = await t.call("GET", `${base}/person/?shoe_size=7`, { key });
    expect(bad.status).toBe(400);
  });
});

describe("paging", () => {
  it.each([
    ["page_size", "?page_size=2&page=2", { page: 2, page_size: 2, pages: 3, n: 2 }],
    ["limit as page_size", "?limit=2&page=3", { page: 3, page_size: 2, pages: 3, n: 1 }],
    ["a page past the end", "?page_size=2&page=9", { page: 9, page_size: 2, pages: 3, n: 0 }],
    ["the maximum page size", "?page_size=1500", { page: 1, page_size: 1500, pages: 1, n: 5 }],
  ])("%s", async (_name, query, expected) => {
    const t = await createTestApp();
    for (let i = 0; i < 5; i++) await seed(t, "alpha", "journal", { n: i });
    const body = await json(await t.call("GET", `${base}/journal/${query}`, { key }));
    expect(body).toMatchObject({ page: expected.page, page_size: expected.page_size, pages: expected.pages, total: 5, grand_total: 5 });
    expect(body.results).toHaveLength(expected.n);
  });

  it("returns pages in creation order without overlap", async () => {
    const t = await createTestApp();
    for (let i = 0; i < 5; i++) await seed(t, "alpha", "journal", { n: i });
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await json(await t.call("GET", `${base}/journal/?page_size=2&page=${page}`, { key }));
      seen.push(...body.results.map((r: { data: { n: number } }) => r.data.n));
    }
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("references", () => {
  it("are expanded in the single shape and stay URIs in lists; writes accept either form", async () => {
    const t = await createTestApp();
    const ada = await create(t, "person", { first_name: "Ada", last_name: "Lovelace" });
    const made = await create(t, "membership", { member: ada.uri, membership_number: "1" });
    expect(made.data.member).toEqual({ display_value: "Ada Lovelace", ref: ada.uri });

    const got = await json(await t.call("GET", `${base}/membership/${idOf(made)}/`, { key }));
    expect(got.data.member).toEqual({ display_value: "Ada Lovelace", ref: ada.uri });

    const list = await json(await t.call("GET", `${base}/membership/`, { key }));
    expect(list.results[0].data.member).toBe(ada.uri);

    const second = await create(t, "membership", { member: { display_value: "whatever", ref: ada.uri } });
    const listed = await json(await t.call("GET", `${base}/membership/?member=${encodeURIComponent(ada.uri)}`, { key }));
    expect(listed.total).toBe(2);
    expect(second.data.member.ref).toBe(ada.uri);
  });
});

describe("file uploads (multipart PUT)", () => {
  it("stores the file, answers {errors, updates} and serves it at the URL", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "journal", { title: "Minutes" });
    const form = new FormData();
    form.set("files", new File(["hello, world"], "minutes 2026.txt", { type: "text/plain" }));
    const res = await t.call("PUT", `${base}/journal/${id}/`, { key, body: form });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.errors).toEqual({});
    expect(body.updates.files).toHaveLength(1);
    const url = body.updates.files[0] as string;
    expect(url).toMatch(/^\/files\/v1\/alpha\/[0-9a-f]{24}\/minutes%202026\.txt$/);

    const file = await t.call("GET", url, { key });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("hello, world");
    expect((await json(await t.call("GET", `${base}/journal/${id}/`, { key }))).data.files).toEqual([url]);
  });

  it("reports a field that cannot hold files in errors", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const form = new FormData();
    form.set("notes", new File(["x"], "x.txt", { type: "text/plain" }));
    const res = await t.call("PUT", `${base}/person/${id}/`, { key, body: form });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body.errors)).toEqual(["notes"]);
    expect(body.updates).toEqual({});
  });

  it.each([
    ["a text part beside the file", (f: FormData) => f.set("title", "x")],
    ["no file part at all", (f: FormData) => f.delete("files")],
  ])("answers 400 for %s and stores nothing", async (_name, edit) => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "journal", { title: "Minutes" });
    const form = new FormData();
    form.set("files", new File(["x"], "x.txt", { type: "text/plain" }));
    edit(form);
    const res = await t.call("PUT", `${base}/journal/${id}/`, { key, body: form });
    expect(res.status).toBe(400);
    expect((await t.engine.get("alpha", "journal", id)).data.files).toBeUndefined();
  });
});
