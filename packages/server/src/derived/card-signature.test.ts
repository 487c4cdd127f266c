import { describe, expect, it } from "vitest";
import {
  SIGNATURE_HELP_HREF,
  cardSignature,
  cardUrl,
  signatureErrorBody,
  signatureInvalidBody,
  signatureMissingBody,
  verifyCardSignature,
} from "./card-signature.js";
import { cardKey, webhookKey } from "../config/keys.js";

const SECRET = "test-secret";
const KEY = cardKey(SECRET);
const ID = "000000000000000000000001";
const OTHER = "000000000000000000000002";
// Computed outside the code under test: the card key is
//   openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:test-secret -kdfopt info:"records-service card-link v1" HKDF
// (e5a69236…37596b), the signature
//   printf 'demo/member/<ID>' | openssl dgst -sha256 -mac HMAC -macopt hexkey:<card key>
const KNOWN = "0906219b1df8eeff248c6842ba2bf45afe2c1caa08935cb08f0a3fc39c8d60d4";
// The old scheme, keyed with the secret itself (printf 'demo/member/<ID>' | openssl dgst -sha256 -hmac test-secret).
const KEYED_WITH_SECRET = "41e37fcdc9b011b4418ea9b7a42860e0ef40c6cb9f9b9a59a553a2c1a17e4e68";

describe("cardSignature", () => {
  it("is the lower-case hex HMAC-SHA256 of {flock}/member/{id}, keyed with the card key", () => {
    expect(KEY.toString("hex")).toBe("e5a69236c521f3e03f0480163d9668a1e134c164a2983cb84c7f75825a37596b");
    expect(cardSignature(KEY, "demo", ID)).toBe(KNOWN);
  });

  it.each([
    { name: "another member", key: KEY, flock: "demo", id: OTHER },
    { name: "another flock", key: KEY, flock: "demo2", id: ID },
    { name: "another secret", key: cardKey("other-secret"), flock: "demo", id: ID },
    { name: "the flock's webhook key", key: webhookKey(SECRET, "demo"), flock: "demo", id: ID },
    { name: "a flock/id split shifted", key: KEY, flock: "demo/member", id: ID },
  ])("differs for $name", ({ key, flock, id }) => {
    expect(cardSignature(key, flock, id)).not.toBe(KNOWN);
    expect(cardSignature(key, flock, id)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("verifyCardSignature", () => {
  it.each([
    { name: "the right signature", signature: KNOWN, expected: "ok" },
    { name: "the right signature in upper case", signature: KNOWN.toUpperCase(), expected: "ok" },
    { name: "no parameter", signature: undefined, expected: "missing" },
    { name: "an empty parameter", signature: "", expected: "missing" },
    { name: "one changed digit", signature: KNOWN.slice(0, -1) + "9", expected: "invalid" },
    { name: "another member's signature", signature: cardSignature(KEY, "demo", OTHER), expected: "invalid" },
    { name: "a signature made with another secret", signature: cardSignature(cardKey("x"), "demo", ID), expected: "invalid" },
    { name: "a signature keyed with the secret itself", signature: KEYED_WITH_SECRET, expected: "invalid" },
    { name: "a signature keyed with the flock's webhook key", signature: cardSignature(webhookKey(SECRET, "demo"), "demo", ID), expected: "invalid" },
    { name: "too short", signature: KNOWN.slice(0, 63), expected: "invalid" },
    { name: "too long", signature: KNOWN + "0", expected: "invalid" },
    { name: "twice the length", signature: KNOWN + KNOWN, expected: "invalid" },
    { name: "non-hex characters", signature: "z".repeat(64), expected: "invalid" },
    { name: "hex with a trailing non-hex character", signature: KNOWN.slice(0, 62) + "0g", expected: "invalid" },
    { name: "surrounding spaces", signature: ` ${KNOWN} `, expected: "invalid" },
    { name: "base64 of the right bytes", signature: Buffer.from(KNOWN, "hex").toString("base64"), expected: "invalid" },
    { name: "multibyte text of the right length", signature: "é".repeat(64), expected: "invalid" },
  ])("$name → $expected", ({ signature, expected }) => {
    expect(verifyCardSignature(KEY, "demo", ID, signature)).toBe(expected);
  });
});

describe("cardUrl", () => {
  it.each([
    { base: "http://127.0.0.1:8080", expected: `http://127.0.0.1:8080/api/v2/demo/member/${ID}/card/?signature=${KNOWN}` },
    { base: "http://127.0.0.1:8080/", expected: `http://127.0.0.1:8080/api/v2/demo/member/${ID}/card/?signature=${KNOWN}` },
    { base: "https://records.example.org/app//", expected: `https://records.example.org/app/api/v2/demo/member/${ID}/card/?signature=${KNOWN}` },
  ])("builds the signed link from $base", ({ base, expected }) => {
    expect(cardUrl(base, SECRET, "demo", ID)).toBe(expected);
  });

  it("produces a link whose signature verifies", () => {
    const url = new URL(cardUrl("http://localhost", SECRET, "demo", OTHER));
    expect(verifyCardSignature(KEY, "demo", OTHER, url.searchParams.get("signature") ?? undefined)).toBe("ok");
  });
});

describe("401 bodies", () => {
  it("missing: the spec's title, description and help link", () => {
    expect(signatureMissingBody()).toEqual({
      title: "signature missing",
      description: "a signature parameter is required",
      error: "signature missing",
      type: "unauthorized",
      link: { href: SIGNATURE_HELP_HREF, rel: "help", text: expect.any(String) },
    });
  });

  it("invalid: its own title and a description", () => {
    const body = signatureInvalidBody("/help");
    expect(body.title).toBe("signature invalid");
    expect(body).toMatchObject({ error: "signature invalid", type: "unauthorized" });
    expect(body.description.length).toBeGreaterThan(0);
    expect(body.link).toEqual({ href: "/help", rel: "help", text: expect.any(String) });
  });

  it.each([
    { check: "missing" as const, title: "signature missing" },
    { check: "invalid" as const, title: "signature invalid" },
  ])("signatureErrorBody($check) has title $title", ({ check, title }) => {
    expect(signatureErrorBody(check).title).toBe(title);
  });
});
