/**
 * @module metrics/request-metrics
 * The middleware that feeds `ServiceMetrics`: every answered request is counted under its
 * route pattern (`/api/v1/:flock/:type/:id`, from hono's matched route), never its raw path,
 * so ids and flock names cannot grow the series without bound. An answer that is an event
 * stream (the change feed) counts as an open subscriber until its body ends or the client
 * goes away; this needs nothing from the route that serves it.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/env.js";
import type { ServiceMetrics } from "./service-metrics.js";

/** The `route` label of a request no route answered (404, 405): one series, whatever the path. */
const UNMATCHED_ROUTE = "unmatched";

/**
 * Counts requests and open event streams into `metrics`. Mount it first, so that it times
 * everything else.
 *
 * @example
 * app.use(createRequestMetrics(metrics));
 */
export function createRequestMetrics(metrics: ServiceMetrics): MiddlewareHandler<AppEnv> {
  return async function requestMetrics(c, next) {
    const started = performance.now();
    await next();
    metrics.observeRequest(c.req.method, _route(c), c.res.status, (performance.now() - started) / 1000);
    const body = c.res.body;
    if (body && c.res.status === 200 && (c.res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      c.res = new Response(countWhileOpen(body, metrics.streamOpened()), c.res);
    }
  };
}

/**
 * `body`, passed through chunk by chunk (no read ahead, so the source's back-pressure is
 * kept), calling `ended` once when it ends, fails or is cancelled by the reader.
 *
 * @example
 * new Response(countWhileOpen(res.body, metrics.streamOpened()), res);
 */
function countWhileOpen(body: ReadableStream<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            ended();
            controller.close();
          } else controller.enqueue(value);
        } catch (e) {
          ended();
          controller.error(e);
        }
      },
      async cancel(reason) {
        ended();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

// --- internal ---

/** The pattern of the route that answered; `*`-only matches are the middlewares': no route. */
function _route(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const path = routePath(c);
  return path === "*" || path === "/*" || path === "" ? UNMATCHED_ROUTE : path;
}
