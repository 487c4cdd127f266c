import { createMemoryStorage, createRecordEngine } from "@records-service/core";
import { Hono } from "hono";
import type { RouterRoute } from "hono/types";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import type { AppEnv } from "../http/env.js";
import { compareRanks, mountBySpecificity, pathRanks } from "./route-order.js";

describe("mountBySpecificity", () => {
  it.each([
    { name: "fixed word before a parameter", a: "/api/v1/:flock/bulk_action", b: "/api/v1/:flock/:type", expected: -1 },
    { name: "parameter before a wildcard", a: "/console/:file", b: "/console/*", expected: -1 },
    { name: "a path before its own wildcard", a: "/console", b: "/console/*", expected: -1 },
    { name: "the first differing segment decides", a: "/segments/v2/:flock/segment/:uid/count", b: "/segments/v2/:flock/:view_context", expected: -1 },
    { name: "equal ranks tie", a: "/api/v1/:flock/find", b: "/api/v1/:flock/user", expected: 0 },
  ])("$name", ({ a, b, expected }) => {
    expect(Math.sign(compareRanks(pathRanks(a), pathRanks(b)))).toBe(expected);
    expect(Math.sign(compareRanks(pathRanks(b), pathRanks(a)))).toBe(expected === 0 ? 0 : -expected);
  });

  it("routes fixed words to their own handlers whatever order they were bound in", async () => {
    const staged = new Hono<AppEnv>({ strict: false });
    // The generic routes first: registered as they are, they would take every fixed word.
    staged.get("/segments/v2/:flock/:view_context", (c) => c.text(`view ${c.req.param("view_context")}`));
    staged.get("/api/v1/:flock/:type", (c) => c.text(`list ${c.req.param("type")}`));
    staged.use("/console/*", async (c, next) => {
      await next();
      c.header("x-wrapped", "yes");
    });
    staged.get("/console/*", (c) => c.text("console file"));
    staged.get("/console", (c, next) => (new URL(c.req.url).pathname === "/console" ? c.text("redirect") : next()));
    staged.get("/segments/v2/:flock/find", (c) => c.text("find"));
    staged.get("/segments/v2/:flock/all", (c) => c.text("all"));
    staged.post("/api/v1/:flock/bulk_action", (c) => c.text("bulk"));
    staged.get("/api/v1/_stats/applications", (c) => c.text("stats"));
    const app = new Hono<AppEnv>({ strict: false });
    mountBySpecificity(app, staged);

    const text = async (method: string, path: string) => (await app.request(path, { method })).text();
    expect(await text("GET", "/segments/v2/demo/find")).toBe("find");
    expect(await text("GET", "/segments/v2/demo/all/")).toBe("all");
    expect(await text("GET", "/segments/v2/demo/email")).toBe("view email");
    expect(await text("POST", "/api/v1/demo/bulk_action/")).toBe("bulk");
    expect(await text("GET", "/api/v1/demo/bulk_action")).toBe("list bulk_action");
    expect(await text("GET", "/api/v1/_stats/applications")).toBe("stats");
    expect(await text("GET", "/api/v1/demo/person")).toBe("list person");
    expect(await text("GET", "/console")).toBe("redirect");
    const file = await app.request("/console/index.html");
    expect([await file.text(), file.headers.get("x-wrapped")]).toEqual(["console file", "yes"]);
  });

  it("answers every route of the app from its own handlers, with the areas bound in reverse order", () => {
    const app = createApp({ engine: createRecordEngine({ storage: createMemoryStorage() }), secret: "unused" });
    // The app's own middleware (`*`) stays first; the areas' routes are bound again, reversed.
    const own = app.routes.filter((r) => r.method !== "ALL" || !r.path.startsWith("/*") && r.path !== "*");
    const groups = new Map<string, RouterRoute[]>();
    for (const r of own) groups.set(`${r.method} ${r.path}`, [...(groups.get(`${r.method} ${r.path}`) ?? []), r]);
    const staged = new Hono<AppEnv>({ strict: false });
    for (const group of [...groups.values()].reverse()) for (const r of group) staged.on(r.method, r.path, r.handler);
    const reversed = new Hono<AppEnv>({ strict: false });
    mountBySpecificity(reversed, staged);

    let checked = 0;
    for (const r of own) {
      if (r.method === "ALL" || r.path.includes("*")) continue;
      const concrete = r.path.replace(/:[a-z_]+(\{[^}]*\})?/g, "zz0");
      for (const candidate of [app, reversed]) expect(_answering(candidate, r.method, concrete), `${r.method} ${r.path}`).toBe(r.path);
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });
});

// --- internal ---

/** The path of the first route of `method` that matches `path`: the one that answers. */
function _answering(app: Hono<AppEnv>, method: string, path: string): string | undefined {
  const [matched] = app.router.match(method, path) as unknown as [[[unknown, RouterRoute], unknown][]];
  return matched.map(([[, route]]) => route).find((route) => route.method === method)?.path;
}
