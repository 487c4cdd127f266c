/**
 * @module examples/webhook-receiver
 * A webhook receiver for Records Service, with nothing but node:http and node:crypto. It
 * verifies both signatures of every delivery, refuses old timestamps (replays), answers
 * 200 at once and prints each delivery once (a retry of a delivery it already has, same
 * `X-Records-Delivery`, is acknowledged and not processed again). Run it with:
 *
 *   WEBHOOK_SECRET=$(npx records-service webhook-secret demo) PORT=8787 node --import tsx examples/webhook-receiver.ts
 *
 * WEBHOOK_SECRET is the flock's webhook key as `records-service webhook-secret FLOCK` prints
 * it (`whsec_` and base64 of 32 bytes), never the server's `secret`: each flock's
 * deliveries are signed with that flock's own key, which signs nothing else.
 *
 * and point a trigger at it (`"url": "http://127.0.0.1:8787/hook"`, with
 * `webhooks.allowInsecureUrls` for local development; use https in production).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { pathToFileURL } from "node:url";

/** A delivery whose signatures checked out. */
export interface VerifiedDelivery {
  id: string;
  timestamp: number;
  /** `{trigger, event, flock, data, contact}`. */
  payload: { trigger: string; event: string; flock: string; data: unknown; contact: unknown };
}

/** Oldest `webhook-timestamp` accepted, in seconds from now (either way). */
export const TOLERANCE_SECONDS = 300;

/**
 * The HMAC key bytes of a flock's webhook key text (`whsec_<base64>`): what a Standard
 * Webhooks library does with it too. Throws for anything else.
 */
export function webhookKeyBytes(text: string): Buffer {
  const b64 = text.startsWith("whsec_") ? text.slice("whsec_".length) : "";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error("WEBHOOK_SECRET must be the whsec_... key printed by records-service webhook-secret FLOCK");
  return Buffer.from(b64, "base64");
}

/**
 * Checks one delivery: both signatures against the flock's key (`whsec_…`), and the
 * timestamp within `TOLERANCE_SECONDS` of `now`. Returns the delivery, or the reason it is
 * refused.
 */
export function verifyDelivery(
  webhookKey: string,
  headers: IncomingHttpHeaders,
  body: string,
  now: Date = new Date(),
): { ok: true; delivery: VerifiedDelivery } | { ok: false; reason: string } {
  const key = webhookKeyBytes(webhookKey);
  const id = _header(headers, "webhook-id");
  const ts = _header(headers, "webhook-timestamp");
  if (!id || !ts || !/^\d+$/.test(ts)) return { ok: false, reason: "missing webhook-id or webhook-timestamp" };
  if (Math.abs(now.getTime() / 1000 - Number(ts)) > TOLERANCE_SECONDS) return { ok: false, reason: "timestamp too old or in the future" };
  if (_header(headers, "x-records-delivery") !== id) return { ok: false, reason: "X-Records-Delivery differs from webhook-id" };

  // 1. X-Records-Signature: sha256=<hex HMAC-SHA256 of the raw body>.
  const hex = createHmac("sha256", key).update(body, "utf8").digest("hex");
  if (!_same(`sha256=${hex}`, _header(headers, "x-records-signature") ?? "")) return { ok: false, reason: "bad X-Records-Signature" };

  // 2. webhook-signature (Standard Webhooks): v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">;
  //    the header may list several space-separated signatures (key rotation).
  const b64 = createHmac("sha256", key).update(`${id}.${ts}.${body}`, "utf8").digest("base64");
  const candidates = (_header(headers, "webhook-signature") ?? "").split(" ");
  if (!candidates.some((c) => _same(`v1,${b64}`, c))) return { ok: false, reason: "bad webhook-signature" };

  let payload: VerifiedDelivery["payload"];
  try {
    payload = JSON.parse(body) as VerifiedDelivery["payload"];
  } catch {
    return { ok: false, reason: "body is not JSON" };
  }
  return { ok: true, delivery: { id, timestamp: Number(ts), payload } };
}

/**
 * The receiver: POST any path. 200 for a verified delivery (first time or repeat), 401
 * for a bad signature or timestamp, 405 for other methods. `onDelivery` runs once per
 * delivery id.
 */
export function createReceiver(opts: { webhookKey: string; onDelivery: (d: VerifiedDelivery) => void; now?: () => Date }): Server {
  webhookKeyBytes(opts.webhookKey); // a wrong key text fails here, at start
  const seen = new Set<string>();
  return createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // Verify the bytes as received: re-serialising the JSON would change them.
      const body = Buffer.concat(chunks).toString("utf8");
      const checked = verifyDelivery(opts.webhookKey, req.headers, body, opts.now?.());
      if (!checked.ok) return void res.writeHead(401, { "content-type": "text/plain" }).end(checked.reason);
      if (!seen.has(checked.delivery.id)) {
        seen.add(checked.delivery.id);
        opts.onDelivery(checked.delivery);
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
}

// --- internal ---

function _header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function _same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const webhookKey = process.env.WEBHOOK_SECRET;
  if (!webhookKey?.startsWith("whsec_")) {
    console.error("set WEBHOOK_SECRET to the flock's key: records-service webhook-secret FLOCK");
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 8787);
  const server = createReceiver({
    webhookKey,
    onDelivery: (d) => console.log(JSON.stringify({ delivery: d.id, trigger: d.payload.trigger, flock: d.payload.flock, uri: (d.payload.data as { uri?: string } | null)?.uri ?? null })),
  });
  server.listen(port, "127.0.0.1", () => console.log(`webhook receiver listening on http://127.0.0.1:${port}/hook`));
}
