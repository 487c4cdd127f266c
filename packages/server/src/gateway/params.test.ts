import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { describeError } from "../http/errors.js";
import type { AppEnv } from "../http/env.js";
import { pageInfo, pageOf, readGatewayParams, readPaging, requiredParam } from "./params.js";

/** A tiny app echoing what the helpers read, errors shaped as the real app does (status + texts). */
function echo() {
  const app = new Hono<AppEnv>();
  app.all("/p", async (c) => {
    const params = await readGatewayParams(c);
    const out: Record<string, unknown> = { names: params.names().sort(), status: params.get("status"), tags: params.all("tag"), raw: params.value("n") };
    if (params.has("want_paging")) out.paging = readPaging(params, 250);
    if (params.has("need")) out.need = requiredParam(params, "need_value");
    return c.json(out);
  });
  app.onError((err, c) => {
    const info = describeError(err);
    return c.json({ error: info.error, detail: info.detail }, info.status);
  });
  return app;
}

describe("readGatewayParams", () => {
  it("reads the query string on GET", async () => {
    const res = await echo().request("/p?status=attended&tag=a&tag=b");
    expect(await res.json()).toMatchObject({ status: "attended", tags: ["a", "b"], names: ["status", "tag"] });
  });

  it.each([
    { name: "JSON", init: { body: JSON.stringify({ status: "cancelled", n: 3, tag: ["x", 1] }), headers: { "content-type": "application/json" } }, expected: { status: "cancelled", raw: 3, tags: ["x", "1"] } },
    { name: "form", init: { body: "status=cancelled&n=3&tag=x", headers: { "content-type": "application/x-www-form-urlencoded" } }, expected: { status: "cancelled", raw: "3", tags: ["x"] } },
  ])("a $name body wins over the query", async ({ init, expected }) => {
    const res = await echo().request("/p?status=attended&tag=q", { method: "PUT", ...init });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject(expected);
  });

  it("keeps query values a body does not name, and an empty body adds nothing", async () => {
    const res = await echo().request("/p?status=attended", { method: "POST", body: "", headers: { "content-type": "application/json" } });
    expect(await res.json()).toMatchObject({ status: "attended", names: ["status"] });
  });

  it.each([
    { name: "invalid JSON", body: "{", type: "application/json", error: "invalid JSON" },
    { name: "a JSON array", body: "[1]", type: "application/json", error: "invalid body" },
    { name: "another content type", body: "<x/>", type: "application/xml", error: "unsupported content type" },
  ])("refuses $name with a 400", async ({ body, type, error }) => {
    const res = await echo().request("/p", { method: "POST", body, headers: { "content-type": type } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error });
  });
});

describe("readPaging", () => {
  it.each([
    { query: "", expected: { page: 1, pageSize: 250 } },
    { query: "&page=3&page_size=10", expected: { page: 3, pageSize: 10 } },
    { query: "&limit=50", expected: { page: 1, pageSize: 50 } },
    { query: "&limit=50&page_size=7", expected: { page: 1, pageSize: 7 } },
    { query: "&page_size=1500", expected: { page: 1, pageSize: 1500 } },
  ])("reads '$query'", async ({ query, expected }) => {
    const res = await echo().request(`/p?want_paging=1${query}`);
    expect(((await res.json()) as any).paging).toEqual(expected);
  });

  it.each(["page_size=abc", "page_size=0", "page_size=2000", "page_size=1.5", "page_size=-1", "page=0", "page=x", "limit=1501", "page_size="])(
    "answers 400 for %s",
    async (query) => {
      const res = await echo().request(`/p?want_paging=1&${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toMatch(/^bad (page_size|page|limit)$/);
    },
  );

  it("reads paging from a JSON body too", async () => {
    const res = await echo().request("/p?want_paging=1&page_size=5", { method: "POST", body: JSON.stringify({ page_size: 9 }) });
    expect(((await res.json()) as any).paging).toEqual({ page: 1, pageSize: 9 });
  });
});

describe("pageOf, pageInfo, requiredParam", () => {
  it("slices and counts pages", () => {
    expect(pageOf([1, 2, 3, 4, 5], { page: 2, pageSize: 2 })).toEqual([3, 4]);
    expect(pageOf([1, 2], { page: 3, pageSize: 2 })).toEqual([]);
    expect(pageInfo(0, { page: 1, pageSize: 25 })).toEqual({ page: 1, page_size: 25, total: 0, pages: 0 });
    expect(pageInfo(51, { page: 2, pageSize: 25 })).toEqual({ page: 2, page_size: 25, total: 51, pages: 3 });
  });

  it("answers 400 for a missing or blank required parameter", async () => {
    for (const q of ["need=1", "need=1&need_value=%20"]) {
      const res = await echo().request(`/p?${q}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toBe("missing need_value");
    }
    expect(((await (await echo().request("/p?need=1&need_value=x")).json()) as any).need).toBe("x");
  });
});
