/**
 * @module routes/console
 * The console for people: `/` redirects to `/console/`, which serves the built app
 * (`@records-service/console`'s `dist/`, made by the root `prepare` build). Hashed assets
 * may be kept for ever; `index.html` is revalidated on every load, so a new build is
 * picked up at once. Nothing is loaded from another host. The security headers of every
 * console answer (CSP, framing, referrer) are set by middleware/security-headers, which runs
 * first, so that 404s, throttled and failed answers on these paths carry them too.
 */
import { serveStatic } from "@hono/node-server/serve-static";
import { consoleDist } from "@records-service/console";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Context, Next } from "hono";
import type { AppEnv } from "../http/env.js";
import { documented } from "../openapi/describe.js";

/** Cache-Control of hashed assets and of everything else (index.html). */
const CONSOLE_CACHE = { asset: "public, max-age=31536000, immutable", page: "no-cache" } as const;

/**
 * The console routes, serving `dist` (default: the console package's build); where the
 * build is missing, `serveConsole` answers a page saying what to run.
 *
 * @example
 * const console = consoleRoutes(); route(app, "GET", "/console/*", console.serveConsole);
 */
export function consoleRoutes(dist: string = consoleDist) {
  const built = existsSync(join(dist, "index.html"));

  return {
    redirectRootToConsole: [documented({ tag: "console", summary: "The console: redirects to /console/", auth: "none", ok: { status: 302, description: "to /console/", media: ["text/html"] }, errors: [] }), redirectRootToConsole],
    addConsoleSlash: [documented({ tag: "console", summary: "The console: redirects to /console/", auth: "none", ok: { status: 301, description: "to /console/", media: ["text/html"] }, errors: [] }), addConsoleSlash],
    serveConsole: [_CONSOLE_DOC, setConsoleCaching, built ? serveStatic({ root: dist, rewriteRequestPath: (p) => p.replace(/^\/console/, "") }) : sayConsoleNotBuilt],
  } as const;

  function redirectRootToConsole(c: Context<AppEnv>) {
    return c.redirect("/console/", 302);
  }

  // The app ignores trailing slashes (and trims them from `c.req.path`), so "/console" and
  // "/console/" meet here: only the first is sent on to the second.
  function addConsoleSlash(c: Context<AppEnv>, next: Next) {
    return _rawPath(c.req.url) === "/console" ? c.redirect("/console/", 301) : next();
  }

  /** Hashed assets may be kept for ever; everything else (index.html) is revalidated. */
  async function setConsoleCaching(c: Context<AppEnv>, next: Next) {
    await next();
    if (c.res.status !== 200) return;
    c.res.headers.set("Cache-Control", c.req.path.startsWith("/console/assets/") ? CONSOLE_CACHE.asset : CONSOLE_CACHE.page);
  }

  /** A checkout whose build has not run: say so to the person, with what to run. */
  function sayConsoleNotBuilt(c: Context<AppEnv>) {
    return c.html(
      "<!doctype html><title>Records Service</title><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm install</code>) and reload. The API is at <code>/api/v1/</code>.</p>",
    );
  }
}

// --- internal ---

const _CONSOLE_DOC = documented({ tag: "console", summary: "The console (HTML, scripts, styles) for people who run a flock", auth: "none", ok: { status: 200, description: "a page or asset of the console", media: ["text/html"] }, errors: [] });

function _rawPath(url: string): string {
  return new URL(url).pathname;
}
