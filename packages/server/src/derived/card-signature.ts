/**
 * @module derived/card-signature
 * Signed member card links. The signature is the lower-case hex HMAC-SHA256 of
 * `{flock}/member/{id}` (contract: "Signed member card"), keyed with the card key derived
 * from the server's `secret` (config/keys `cardKey`), not with the secret itself, so no
 * other holder of a derived key (a flock's webhook receiver) can make card links. Checking
 * compares the decoded bytes in constant time, so timing reveals nothing about the expected
 * value; malformed signatures are refused before any comparison, without throwing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { cardKey } from "../config/keys.js";

/** The outcome of a signature check: the route answers 401 for anything but `ok`. */
export type SignatureCheck = "ok" | "missing" | "invalid";

/** The 401 body of a signed resource (the v2 error shape `{title, description, error, type}` plus a help link). */
export interface SignatureErrorBody {
  title: "signature missing" | "signature invalid";
  description: string;
  error: "signature missing" | "signature invalid";
  type: "unauthorized";
  link: { href: string; rel: "help"; text: string };
}

/** Where the 401 bodies point by default: the signed-card section of the v2 docs. */
export const SIGNATURE_HELP_HREF = "/docs/v2#signed-member-cards";

/**
 * The signature of a member card, with the card key (`cardKey(secret)`).
 *
 * @example
 * cardSignature(cardKey(secret), "demo", "6930f1c2a1b2c3d4e5000001") // 64 lower-case hex characters
 */
export function cardSignature(key: Uint8Array, flock: string, memberId: string): string {
  return createHmac("sha256", key).update(_signedText(flock, memberId)).digest("hex");
}

/**
 * Checks the `signature` query parameter of a card request. Absent or empty: `missing`.
 * Anything but 64 hex characters (either case) holding the right HMAC: `invalid`.
 *
 * @example
 * verifyCardSignature(cardKey(secret), "demo", id, c.req.query("signature")) // "ok" | "missing" | "invalid"
 */
export function verifyCardSignature(
  key: Uint8Array,
  flock: string,
  memberId: string,
  signature: string | undefined,
): SignatureCheck {
  if (signature === undefined || signature === "") return "missing";
  if (!HEX_64_RE.test(signature)) return "invalid";
  const expected = createHmac("sha256", key).update(_signedText(flock, memberId)).digest();
  const given = Buffer.from(signature, "hex");
  // Both are 32 bytes here (the regex fixed the length), as timingSafeEqual requires.
  return given.length === expected.length && timingSafeEqual(given, expected) ? "ok" : "invalid";
}

/**
 * The full signed card URL of a member, given the server's secret (the card key is derived
 * from it here).
 *
 * @example
 * cardUrl("http://127.0.0.1:8080/", secret, "demo", id)
 * // "http://127.0.0.1:8080/api/v2/demo/member/<id>/card/?signature=<hex>"
 */
export function cardUrl(baseUrl: string, secret: string, flock: string, memberId: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  const path = `/api/v2/${encodeURIComponent(flock)}/member/${encodeURIComponent(memberId)}/card/`;
  return `${base}${path}?signature=${cardSignature(cardKey(secret), flock, memberId)}`;
}

/** The 401 body for a card request without a signature. */
export function signatureMissingBody(helpHref: string = SIGNATURE_HELP_HREF): SignatureErrorBody {
  return {
    title: "signature missing",
    description: "a signature parameter is required",
    error: "signature missing",
    type: "unauthorized",
    link: { href: helpHref, rel: "help", text: HELP_TEXT },
  };
}

/** The 401 body for a card request whose signature does not match the member. */
export function signatureInvalidBody(helpHref: string = SIGNATURE_HELP_HREF): SignatureErrorBody {
  return {
    title: "signature invalid",
    description: "the signature does not match this member card; ask for a new signed link",
    error: "signature invalid",
    type: "unauthorized",
    link: { href: helpHref, rel: "help", text: HELP_TEXT },
  };
}

/** The 401 body for a failed check (`missing` or `invalid`). */
export function signatureErrorBody(
  check: Exclude<SignatureCheck, "ok">,
  helpHref: string = SIGNATURE_HELP_HREF,
): SignatureErrorBody {
  return check === "missing" ? signatureMissingBody(helpHref) : signatureInvalidBody(helpHref);
}

// --- internal ---

const HEX_64_RE = /^[0-9a-fA-F]{64}$/;
const HELP_TEXT = "How signed member card links work";

function _signedText(flock: string, memberId: string): string {
  return `${flock}/member/${memberId}`;
}
