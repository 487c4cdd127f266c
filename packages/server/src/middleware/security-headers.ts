/**
 * @module middleware/security-headers
 * Headers every answer carries, whichever part of the app (or an error, a throttle, a 404)
 * produced it, so it is mounted first. Every answer: `X-Content-Type-Options: nosniff` and
 * `X-Frame-Options: DENY` (nothing the service serves is meant to be framed or sniffed),
 * kept where a route set its own. The console's answers (`/`, `/console`, `/console/...`,
 * 404s included) also get a strict Content-Security-Policy (scripts, styles and fetches
 * from this origin only, no inline code, never framed), `Referrer-Policy: no-referrer` and
 * `Cross-Origin-Opener-Policy: same-origin`; these replace anything a route set.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";

/**
 * The console's Content-Security-Policy. The built console is one module script and one
 * stylesheet from `/console/assets/`, no inline script or style attribute, no image, font
 * or frame; it talks to its own origin with `fetch` (the API and the change feed). Files
 * are downloaded through `blob:` URLs, which are navigations, not loads, so need no source.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** What every console answer carries (set over whatever a route set). */
const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
};

/** What every other answer carries unless its route set the header itself. */
const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
};

/** True for the paths that serve the console (its page, its assets, its redirects); `path` as Hono gives it. */
export function isConsolePath(path: string): boolean {
  return path === "/" || path === "" || path === "/console" || path.startsWith("/console/");
}

/**
 * The middleware; mount it before every other one, so throttled, failed and unknown
 * requests get the headers too.
 *
 * @example
 * app.use(createSecurityHeaders());
 */
export function createSecurityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeaders(c, next) {
    await next();
    if (isConsolePath(c.req.path)) {
      const headers = c.res.headers;
      for (const [name, value] of Object.entries(CONSOLE_HEADERS)) headers.set(name, value);
      return;
    }
    if (_secured.has(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(BASELINE_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  };
}

/**
 * The answer of a hot JSON read (a record, a list page) with every header already in place
 * as plain values, or undefined when it cannot be built so (the caller then answers with
 * `c.body`). Built only for a GET whose headers no middleware reads or changes after the
 * route (`finalHeaders`, see AppEnv), on a path that is not the console's. Its bytes are
 * those of `c.body(text, 200, {Content-Type, ETag})` after this middleware: the names
 * lower-cased in sorted order, then `Content-Length`, which is how @hono/node-server writes
 * a `Headers` object; but no `Headers` is built, set, sorted and read back (both the
 * route's and this middleware's), which cost a get over HTTP about a tenth of its time.
 *
 * @example
 * return securedJson(c, text, etag) ?? c.body(text, 200, { "Content-Type": "application/json", ETag: etag });
 */
export function securedJson(c: Context<AppEnv>, text: string, etag?: string): Response | undefined {
  if (c.req.method !== "GET" || c.get("finalHeaders") !== true || isConsolePath(c.req.path)) return undefined;
  // In sorted order: content-type < etag < x-content-type-options < x-frame-options.
  const headers: Record<string, string> = etag === undefined ? { "content-type": "application/json" } : { "content-type": "application/json", etag };
  headers["x-content-type-options"] = BASELINE_HEADERS["X-Content-Type-Options"]!;
  headers["x-frame-options"] = BASELINE_HEADERS["X-Frame-Options"]!;
  headers["Content-Length"] = String(Buffer.byteLength(text));
  const res = new Response(text, { status: 200, headers });
  _secured.add(res);
  return res;
}

// --- internal ---

/** The answers `securedJson` built: they carry the baseline headers already. */
const _secured = new WeakSet<Response>();

