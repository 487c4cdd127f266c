import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { recordsSignature, standardSignature, verifyRecordsSignature, verifyStandardSignature, webhookHeaders } from "./signature.js";

const SECRET = "a-secret-of-sixteen+";
const BODY = '{"trigger":"contact_created","event":"contact","flock":"demo","data":{"é":1},"contact":null}';

describe("webhook signatures", () => {
  it("X-Records-Signature is the hex HMAC-SHA256 of the body bytes, keyed with the secret", () => {
    const expected = createHmac("sha256", SECRET).update(Buffer.from(BODY, "utf8")).digest("hex");
    expect(recordsSignature(SECRET, BODY)).toBe(`sha256=${expected}`);
    expect(recordsSignature(SECRET, BODY)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("webhook-signature is v1,<base64 HMAC of id.timestamp.body> keyed with the secret's UTF-8 bytes", () => {
    const expected = createHmac("sha256", Buffer.from(SECRET, "utf8")).update(`msg1.1767225600.${BODY}`).digest("base64");
    expect(standardSignature(SECRET, "msg1", 1767225600, BODY)).toBe(`v1,${expected}`);
  });

  it("builds every header of an attempt", () => {
    const h = webhookHeaders(SECRET, "0123456789abcdef01234567", 1767225600, BODY);
    expect(h).toEqual({
      "Content-Type": "application/json",
      "X-Records-Delivery": "0123456789abcdef01234567",
      "X-Records-Signature": recordsSignature(SECRET, BODY),
      "webhook-id": "0123456789abcdef01234567",
      "webhook-timestamp": "1767225600",
      "webhook-signature": standardSignature(SECRET, "0123456789abcdef01234567", 1767225600, BODY),
    });
  });

  it("verifies both signatures, and refuses a changed body, another secret or junk", () => {
    const h = webhookHeaders(SECRET, "d1", 1767225600, BODY);
    expect(verifyRecordsSignature(SECRET, BODY, h["X-Records-Signature"])).toBe(true);
    expect(verifyRecordsSignature(SECRET, BODY, h["X-Records-Signature"].toUpperCase().replace("SHA256=", "sha256="))).toBe(true);
    expect(verifyRecordsSignature(SECRET, `${BODY} `, h["X-Records-Signature"])).toBe(false);
    expect(verifyRecordsSignature("another-secret-16ch", BODY, h["X-Records-Signature"])).toBe(false);
    expect(verifyRecordsSignature(SECRET, BODY, undefined)).toBe(false);
    expect(verifyRecordsSignature(SECRET, BODY, "sha256=00")).toBe(false);

    expect(verifyStandardSignature(SECRET, "d1", "1767225600", BODY, h["webhook-signature"])).toBe(true);
    expect(verifyStandardSignature(SECRET, "d1", "1767225600", BODY, `v1,bogus ${h["webhook-signature"]}`)).toBe(true);
    expect(verifyStandardSignature(SECRET, "d2", "1767225600", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(SECRET, "d1", "1767225601", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(SECRET, "d1", "abc", BODY, h["webhook-signature"])).toBe(false);
    expect(verifyStandardSignature(SECRET, "d1", "1767225600", BODY, null)).toBe(false);
  });
});
