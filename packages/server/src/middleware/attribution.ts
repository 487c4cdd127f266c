/**
 * @module middleware/attribution
 * Who is calling, and how often. The `APPLICATION` header (`<Organisation>/<Application>/
 * <Version>`) is parsed on every request: its label goes on the context (the access log
 * records it) and into the per-application counts. A request with a well-formed header is
 * attributed and never throttled. Any other request is unattributed and throttled: per API
 * key when it carries a Bearer token, per client address otherwise (logins), at
 * `unattributedPerMinute`. Unattributed responses carry `x-rate-limit-limit`,
 * `x-rate-limit-remaining` and `x-rate-limit-reset`; a refused one is a 429 with
 * `Retry-After`; a malformed header adds a `Warning` saying why it was ignored.
 * Liveness probes and signed card links (opened by browsers, which cannot add headers)
 * are counted but not throttled.
 */
import type { MiddlewareHandler } from "hono";
import { RecordsError, type Clock, type Storage } from "@records-service/core";
import { hashToken } from "../auth/tokens.js";
import type { AppEnv } from "../http/env.js";
import type { ApplicationCounts } from "../protection/application-counts.js";
import { applicationWarning, parseApplicationHeader, type ApplicationHeader } from "../protection/application-header.js";
import { createThrottle, rateLimitHeaders, throttledDetail, type Throttle } from "../protection/throttle.js";
import { bearerToken } from "./auth.js";
import { clientAddress } from "./client-address.js";

/** Options of `createAttribution`. */
export interface AttributionOptions {
  clock: Clock;
  /** Where the throttle windows live (shared by every process on the database). */
  storage: Storage;
  /** Unattributed requests allowed per minute and API key (or client address without a key). */
  unattributedPerMinute: number;
  /** Where requests are counted per application. */
  counts: ApplicationCounts;
  /**
   * Whether an attributed request's answer is final when its route returns (no middleware
   * above reads its headers or body: no request metrics); sets `finalHeaders`. Default false.
   */
  finalHeaders?: boolean;
  /** Window length; one minute unless a test says otherwise. */
  windowMs?: number;
}

/**
 * Paths never throttled: liveness probes (monitors rarely name themselves) and signed
 * member cards (opened from a link in a browser).
 */
function isUnthrottledPath(path: string): boolean {
  return UNTHROTTLED.some((re) => re.test(path));
}

/**
 * The attribution and throttling middleware; mount it before the routes.
 *
 * @example
 * app.use(createAttribution({ clock, storage, unattributedPerMinute: 60, counts: createApplicationCounts({ storage, clock }) }));
 */
export function createAttribution(options: AttributionOptions): MiddlewareHandler<AppEnv> {
  const throttle: Throttle = createThrottle({
    perMinute: options.unattributedPerMinute,
    storage: options.storage,
    clock: options.clock,
    ...(options.windowMs !== undefined ? { windowMs: options.windowMs } : {}),
  });
  const parsed = _parsedHeaders();
  return async function attribution(c, next) {
    const header = parsed(c.req.header("application"));
    const label = header.ok ? header.label : null;
    c.set("application", label);
    options.counts.record(label);
    if (header.ok) {
      // Nothing below adds headers to an attributed request's answer.
      if (options.finalHeaders) c.set("finalHeaders", true);
      return next();
    }

    const warning = applicationWarning(header);
    if (isUnthrottledPath(c.req.path)) {
      await next();
      if (warning) c.header("Warning", warning);
      return;
    }
    const result = await throttle.check(_throttleKey(c));
    const headers = rateLimitHeaders(result);
    if (warning) headers["Warning"] = warning;
    if (!result.allowed) {
      throw new RecordsError("rate_limited", "too many requests", throttledDetail(result), { headers });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  };
}

// --- internal ---

/** Distinct header values whose parse is kept; past it the memo is emptied (a client sends one value on every request). */
const _PARSED_MAX = 256;

/**
 * `parseApplicationHeader`, remembered per value: a client sends the same header on every
 * request, and the parse (split, trims, a control-character test, an object) is a pure
 * function of it. The results are only read.
 */
function _parsedHeaders(): (value: string | undefined) => ApplicationHeader {
  const seen = new Map<string, ApplicationHeader>();
  return (value) => {
    if (value === undefined) return parseApplicationHeader(value);
    let header = seen.get(value);
    if (header === undefined) {
      if (seen.size >= _PARSED_MAX) seen.clear();
      header = parseApplicationHeader(value);
      seen.set(value, header);
    }
    return header;
  };
}

const UNTHROTTLED: readonly RegExp[] = [
  /^\/api\/v1\/(ping|health)\/?$/,
  /^\/api\/v2\/[^/]+\/member\/[^/]+\/card\/?$/,
];

/** The login paths: a Bearer header there authenticates nothing, so it picks no throttle key. */
const LOGIN_PATH = /^\/api\/v1\/(auth|[^/]+\/user\/auth)\/?$/;

/**
 * A Bearer token's hash (the key is throttled whoever holds it), else the client address.
 * Logins always count against the address: a made-up token per request must not buy a
 * fresh window (the login guard limits failures whatever the headers).
 */
function _throttleKey(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const token = LOGIN_PATH.test(c.req.path) ? undefined : bearerToken(c.req.header("authorization"));
  return token ? `key:${hashToken(token)}` : `address:${clientAddress(c)}`;
}
