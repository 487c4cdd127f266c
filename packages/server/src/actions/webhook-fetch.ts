/**
 * @module actions/webhook-fetch
 * The `fetch` webhook deliveries use: node:http/https with the guarded lookup, so every
 * address a target name resolves to is checked when the socket connects (the global fetch
 * offers no hook for that without a dependency). A URL whose host is a literal IP address
 * is checked here, since sockets skip the lookup for those. It does what the webhook
 * action needs of fetch and no more: one request with a string body, never a redirect,
 * an AbortSignal, and a `Response` whose body streams.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { addressRange, targetHost } from "@records-service/core";
import { createGuardedLookup, RestrictedTargetError, type Resolver } from "./guarded-lookup.js";

/** Options of `createWebhookFetch`. */
export interface WebhookFetchOptions {
  /** Connect to private, loopback and link-local addresses too. */
  allowPrivateTargets: boolean;
  /** Default: the system resolver. Tests inject one. */
  resolve?: Resolver;
  /** Extra certificate authorities to trust (tests with a self-signed receiver). */
  ca?: string | Buffer;
}

/**
 * A fetch for webhook deliveries that refuses restricted targets at connect time. Rejects
 * with `RestrictedTargetError` for such a target, like fetch for a network error otherwise.
 *
 * @example
 * const fetch = createWebhookFetch({ allowPrivateTargets: false });
 * await fetch("https://hooks.example.org/in", { method: "POST", headers, body }); // a Response
 */
export function createWebhookFetch(opts: WebhookFetchOptions): typeof fetch {
  const lookup = createGuardedLookup({ allowPrivateTargets: opts.allowPrivateTargets, ...(opts.resolve ? { resolve: opts.resolve } : {}) });
  // Kept-alive sockets were checked when they connected; idle ones do not hold the process.
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, lookup }),
    "https:": new HttpsAgent({ keepAlive: true, lookup, ...(opts.ca ? { ca: opts.ca } : {}) }),
  };
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`cannot deliver to ${url.protocol} URLs`);
    // Judged without trailing dots: `10.0.0.1..` is not an address to the URL parser, but is 10.0.0.1.
    const host = targetHost(url.hostname);
    const range = addressRange(host);
    if (!opts.allowPrivateTargets && range !== undefined && range !== "public") {
      throw new RestrictedTargetError(url.hostname, host.replace(/^\[|\]$/g, ""), range);
    }
    if (init.body !== undefined && init.body !== null && typeof init.body !== "string") throw new TypeError("webhook bodies are strings");
    init.signal?.throwIfAborted();
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        {
          method: init.method ?? "GET",
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          agent: agents[url.protocol as "http:" | "https:"],
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          try {
            resolve(_response(res));
          } catch (e) {
            res.destroy();
            reject(e);
          }
        },
      );
      req.on("error", reject);
      req.end(init.body ?? undefined);
    });
  }) as typeof fetch;
}

// --- internal ---

/** Statuses whose Response must have no body. */
const _NULL_BODY = new Set([101, 204, 205, 304]);

function _response(res: IncomingMessage): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`the receiver answered with status ${status}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  if (_NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>, { status, headers });
}
