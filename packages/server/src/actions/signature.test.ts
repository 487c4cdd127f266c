import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatWebhookKey, webhookKey } from "../config/keys.js";
import { recordsSignature, standardSignature, verifyRecordsSignature, verifyStandardSignature, webhookHeaders } from "./signature.js";

const SECRET = "a-secret-of-sixteen+";
const KEY = webhookKey(SECRET, "demo");
const BODY = '{"trigger":"contact_created","event":"contact","flock":"demo","data":{"é":1},"contact":null}';

/** What a Standard Webhooks library does with a `whsec_` text: strip the prefix, base64-decode, HMAC. */
function standardLibrarySign(text: string, id: string, ts: number, body: string): string {
  const key = Buffer.from(text.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64")}`;
}

describe("webhook signatures", () => {
  it("X-Records-Signature is the hex HMAC-SHA256 of the body bytes, keyed with the flock's key", () => {
    const expected = createHmac("sha256", KEY).update(Buffer.from(BODY, "utf8")).digest("hex");
    expect(recordsSignature(KEY, BODY)).toBe(`sha256=${expected}`);
    expect(recordsSignature(KEY, BODY)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("webhook-signature is v1,<base64 HMAC of id.timestamp.body>, as a Standard Webhooks library computes it from the printed key", () => {
    const expected = createHmac("sha256", KEY).update(`msg1.1767225600.${BODY}`).digest("base64");
    expect(standardSignature(KEY, "msg1", 1767225600, BODY)).toBe(`v1,${expected}`);
    expect(standardSignature(KEY, "msg1", 1767225600, BODY)).toBe(standardLibrarySign(formatWebhookKey(KEY), "msg1", 1767225600, BODY));
  });

  it("neither header is keyed with the secret itself", () => {
    const h = webhookHeaders(KEY, "d1", 1767225600, BODY);
    const raw = Buffer.from(SECRET, "utf8");
    expect(h["X-Records-Signature"]).not.toBe(recordsSignature(raw, BODY));
    expect(h["webhook-signature"]).not.toBe(standardSignature(raw, "d1", 1767225600, BODY));
  });

  it("builds every header of an attempt", () => {
    const h = webhookHeaders(KEY, "0123456789abcdef01234567", 1767225600, BODY);
    expect(h).toEqual({
      "Content-Type": "application/json",
      "X-Records-Delivery": "0123456789abcdef01234567",
      "X-Records-Signature": recordsSignature(KEY, BODY),
      "webhook-id": "0123456789abcdef01234567",
      "webhook-timestamp": "1767225600",
      "webhook-signature": standardSignature(KEY, "0123456789abcdef01234567", 1767225600, BODY),
    });
  });

  it("verifies both signatures, and refuses a changed body, another flock's key or junk", () => {
    const h = webhookHeaders(KEY, "d1", 1767225600, BODY);
    const club = webhookKey(SECRET, "club");
    expect(verifyRecordsSignature(KEY, BODY, h["X-Records-Signature"])).toBe(true);
    expect(verifyRecordsSignature(KEY, BODY, h["X-Records-Signature"].toUpperCase().replace("SHA256=", "sha256="))).toBe(true);
    expect(verifyRecordsSignature(KEY, `${BODY} `, h["X-Records-Signature"])).toBe(false);
    expect(verifyRecordsSignature(club, BODY, h["X-Records-Signature"])).toBe(false);
    expect(verifyRecordsSignature(KEY, BODY, undefined)).toBe(false);
    expect(verifyRecordsSignature(KEY, BODY, "sha256=00")).toBe(false);

    expect(verifyStandardSignature(KEY, "d1", "1767225600", BODY, h["webhook-signature"])).toBe(true);
    expect(verifyStandardSignature(KEY, "d1", "1767225600", BODY, `v1,bogus ${h["webhook-signature"]}`)).toBe(true);
    expect(verifyStandardSignature(club, "d1", "1767225600", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(KEY, "d2", "1767225600", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(KEY, "d1", "1767225601", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(KEY, "d1", "abc", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(KEY, "d1", "1767225600", BODY, null)).toBe(false);
  });
});
