/**
 * @module runtime/http
 * The Node HTTP listener around a fetch handler (@hono/node-server), and its graceful
 * close: stop accepting, let requests in flight finish, then drop idle keep-alive sockets.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type HttpBindings } from "@hono/node-server";

/** How long a graceful close waits for requests in flight before cutting their sockets. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often, while closing, sockets that have gone idle are closed. */
const IDLE_SWEEP_MS = 50;

/** A listening server. */
export interface Listener {
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** Resolves once every connection is closed. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Listens on `host:port`. Rejects when the port cannot be bound (e.g. EADDRINUSE). `fetch`
 * gets Node's request beside the fetch Request (`env.incoming`, Hono's `c.env`): a handler
 * passing it on lets the body limit read a body from it instead of building a full fetch
 * Request, twice (middleware/body-limit).
 *
 * @example
 * const l = await listen(app.fetch, "127.0.0.1", 0); l.port; await l.close();
 */
export function listen(fetch: (req: Request, env: HttpBindings) => Response | Promise<Response>, host: string, port: number): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    const server = serve({ fetch: (req, env) => fetch(req, env as HttpBindings), hostname: host, port }, (info: AddressInfo) => {
      server.off("error", onError);
      resolve({ port: info.port, close: (graceMs) => _close(server, graceMs ?? SHUTDOWN_GRACE_MS) });
    }) as Server;
    server.once("error", onError);
  });
}

// --- internal ---

function _close(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((err) => {
      clearInterval(sweep);
      clearTimeout(cut);
      if (err) reject(err);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
