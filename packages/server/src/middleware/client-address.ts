/**
 * @module middleware/client-address
 * The peer address of a request, as the Node server saw the socket. Forwarding headers
 * (`X-Forwarded-For`) are not trusted: any client can write them, and trusting them would
 * let one caller spread its attempts over invented addresses.
 */
import type { Context } from "hono";

/** Used when the request did not come through a socket (e.g. `app.request()` in tests). */
const UNKNOWN_ADDRESS = "unknown";

/**
 * The remote address of the request's socket, or `"unknown"`.
 *
 * @example
 * clientAddress(c) // "127.0.0.1"
 */
export function clientAddress(c: Context): string {
  const env = c.env as _NodeBindings | undefined;
  const bindings = env?.server ?? env;
  return bindings?.incoming?.socket?.remoteAddress ?? UNKNOWN_ADDRESS;
}

// --- internal ---

interface _NodeBindings {
  server?: _NodeBindings;
  incoming?: { socket?: { remoteAddress?: string } };
}
