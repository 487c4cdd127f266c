/**
 * @module routes/derived
 * The v2 derived reads beyond `display` (which routes/record-actions serves on both
 * surfaces): a record's `avatar` (Bearer key; a redirect to the uploaded photo where there
 * is one, as the hosted service answers) and a member's signed `card` (no key: the
 * `signature` query parameter is the credential, checked before anything is looked up, so
 * ids cannot be probed without a valid link).
 */
import { badRequest, RecordsError, type FlockStore, type StoredFile, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { AVATAR_DEFAULT_SIZE, AVATAR_MAX_SIZE, AVATAR_MIN_SIZE, parseAvatarQuery, renderInitialsAvatar } from "../derived/avatar.js";
import { cardKey } from "../config/keys.js";
import { renderCard } from "../derived/card.js";
import { loadCard } from "../derived/card-data.js";
import { signatureErrorBody, verifyCardSignature } from "../derived/card-signature.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { INLINE_CONTENT_TYPES, mimeType, toArrayBuffer } from "./files.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/** Supplies the server's secret (read once from settings, or given); card links are checked with the card key derived from it. */
export type SecretSource = () => Promise<string>;

/**
 * Routes `GET /:flock/:type/:id/avatar` and `GET /:flock/member/:id/card`; mount under `/api/v2`.
 *
 * @example
 * const routes = derivedRoutes(engine, guards, flocks, async () => secret); route(app, "GET", "/api/v2/:flock/member/:id/card", routes.getMemberIdCard);
 */
export function derivedRoutes(engine: RouteEngine, guards: RouteGuards, flocks: FlockStore, secret: SecretSource) {

  return {
    getMemberIdCard: [describeGetMemberIdCard(), getMemberIdCard],
    getTypeIdAvatar: [describeGetTypeIdAvatar(), guards.requireKey(), guards.requireFlock, getTypeIdAvatar],
  } as const;

  function describeGetMemberIdCard(): MiddlewareHandler {
    return documented({ tag: "derived", summary: "A member's card (HTML), by signed link", auth: "card", ok: { status: 200, description: "the card page", media: ["text/html"] }, errors: [404] });
  }

  async function getMemberIdCard(c: Context<AppEnv, "/:flock/member/:id/card">) {
    const { flock, id } = c.req.param();
    const check = verifyCardSignature(cardKey(await secret()), flock, id, c.req.query("signature"));
    if (check !== "ok") {
      const { title, description, link } = signatureErrorBody(check);
      throw new RecordsError("unauthorized", title, description, { headers: PRIVATE_HEADERS, link });
    }
    const html = renderCard((await loadCard(engine, flocks, flock, id)).input);
    return c.html(html, 200, { ...PRIVATE_HEADERS, "Content-Security-Policy": CARD_CSP, "X-Robots-Tag": "noindex, nofollow" });
  }

  function describeGetTypeIdAvatar(): MiddlewareHandler {
    return documented({
      tag: "derived",
      summary: "A record's avatar: the uploaded photo, or initials",
      auth: "key",
      query: [
        queryParam("format", "png or svg (default png)", { type: "string", enum: ["png", "svg"] }),
        queryParam("size", `edge length in pixels, ${AVATAR_MIN_SIZE} to ${AVATAR_MAX_SIZE} (default ${AVATAR_DEFAULT_SIZE})`, { type: "integer", minimum: AVATAR_MIN_SIZE, maximum: AVATAR_MAX_SIZE }),
      ],
      ok: { status: 200, description: "the image", media: ["image/png", "image/svg+xml"] },
      errors: [400, 403, 404],
    });
  }

  async function getTypeIdAvatar(c: Context<AppEnv, "/:flock/:type/:id/avatar">) {
    const { flock, type, id } = c.req.param();
    const query = parseAvatarQuery({ format: c.req.query("format"), size: c.req.query("size") });
    if (!query.ok) throw badRequest("invalid avatar parameter", query.reason);
    const record = await engine.get(flock, type, id);
    // As the hosted service does: a redirect to the uploaded image (its file URL, same key).
    if (await _uploadedPhoto(engine, record)) return c.redirect(record.data["photo"] as string, 302);
    const image = renderInitialsAvatar(record, query.format, query.size);
    return c.body(toArrayBuffer(image.body), 200, { ...IMAGE_HEADERS, "Content-Type": image.contentType });
  }
}

// --- internal ---

/** Card links carry their credential in the URL: keep them out of caches and Referer headers. */
const PRIVATE_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } as const;
/** The card is one self-contained page: inline CSS only, nothing else loads or runs. */
const CARD_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const IMAGE_HEADERS = {
  "Cache-Control": "private, max-age=0, must-revalidate",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
} as const;
const PHOTO_URL_RE = /^\/files\/v1\/([^/]+)\/([0-9a-f]{24})\/[^/]+$/;

/**
 * A person's uploaded photo, when it is a raster image this server shows inline. An SVG or
 * other upload is not served as the avatar (it could carry script); the initials are.
 */
async function _uploadedPhoto(engine: RouteEngine, record: StoredRecord): Promise<StoredFile | undefined> {
  if (record.type !== "person" || typeof record.data["photo"] !== "string") return undefined;
  const m = PHOTO_URL_RE.exec(record.data["photo"]);
  if (!m || m[1] !== record.flock) return undefined;
  const file = await engine.read.getFile(record.flock, m[2]!);
  if (!file || file.flock !== record.flock) return undefined;
  return INLINE_CONTENT_TYPES.includes(mimeType(file.contentType)) ? file : undefined;
}
