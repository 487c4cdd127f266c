/**
 * @module bench/peers/bare-hono
 * The HTTP limit: a bare Hono app on @hono/node-server (what our server is built on) that
 * answers our routes' paths with bytes recorded from our server, doing no work besides
 * routing (and parsing the body of a create). Run as its own process:
 *
 *   node --import tsx bench/peers/bare-hono.ts <bodies.json>
 *
 * where bodies.json is `{ "get": "...", "list": "...", "create": "..." }`. Prints
 * `listening on http://127.0.0.1:<port>`.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const bodies = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as { get: string; list: string; create: string };
const json = { "content-type": "application/json" };
const app = new Hono({ strict: false });
app.get("/api/v1/:flock/:type/:id", (c) => c.body(bodies.get, 200, json));
app.get("/api/v1/:flock/:type", (c) => c.body(bodies.list, 200, json));
app.post("/api/v1/:flock/:type", async (c) => {
  await c.req.json();
  return c.body(bodies.create, 201, json);
});

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
