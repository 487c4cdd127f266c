import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cardKey, deriveKey, formatWebhookKey, parseWebhookKey, webhookKey, webhookKeyInfo } from "./keys.js";

const SECRET = "test-secret-0123456789";
// Computed outside the code under test:
// openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:test-secret-0123456789 -kdfopt info:"<label>" HKDF
const KNOWN = {
  card: "09857454987465d5edc79ee151ee09fbc431bf510fc5a4b9dee70fcb94e92db9",
  demo: "54d2b1cfa2641183737783b65c21132dc867041898272a6bd7c4679caee4f98c",
  club: "b8b30a48a88a746605045e00aa5441087132afe27365745291ab7035d6b657eb",
};

describe("derived keys", () => {
  it("are HKDF-SHA256 of the secret with an empty salt and the purpose's label", () => {
    expect(cardKey(SECRET).toString("hex")).toBe(KNOWN.card);
    expect(webhookKey(SECRET, "demo").toString("hex")).toBe(KNOWN.demo);
    expect(webhookKey(SECRET, "club").toString("hex")).toBe(KNOWN.club);
    expect(deriveKey(SECRET, webhookKeyInfo("demo")).toString("hex")).toBe(KNOWN.demo);
  });

  it("differ per purpose and per flock, and none is the secret", () => {
    const keys = [cardKey(SECRET), webhookKey(SECRET, "demo"), webhookKey(SECRET, "club"), webhookKey(SECRET, "card-link v1")];
    const texts = keys.map((k) => k.toString("hex"));
    expect(new Set(texts).size).toBe(keys.length);
    for (const k of keys) {
      expect(k).toHaveLength(32);
      expect(k.equals(Buffer.from(SECRET, "utf8"))).toBe(false);
    }
  });

  it("all change when the secret is rotated", () => {
    const other = "another-secret-0123456789";
    expect(cardKey(other).equals(cardKey(SECRET))).toBe(false);
    expect(webhookKey(other, "demo").equals(webhookKey(SECRET, "demo"))).toBe(false);
  });

  it("a flock's webhook key cannot make another flock's signature or a card signature", () => {
    // What a receiver of flock demo holds is its key; the other keys are not derivable from
    // it (HKDF outputs are independent), so compare what each key signs.
    const demo = webhookKey(SECRET, "demo");
    const sign = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest("hex");
    expect(sign(demo, "body")).not.toBe(sign(webhookKey(SECRET, "club"), "body"));
    expect(sign(demo, "demo/member/000000000000000000000001")).not.toBe(sign(cardKey(SECRET), "demo/member/000000000000000000000001"));
  });
});

describe("webhook key text", () => {
  it("is whsec_ and standard base64 of the 32 bytes, and parses back", () => {
    const key = webhookKey(SECRET, "demo");
    const text = formatWebhookKey(key);
    expect(text).toBe(`whsec_${Buffer.from(KNOWN.demo, "hex").toString("base64")}`);
    expect(text).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(parseWebhookKey(text).equals(key)).toBe(true);
  });

  it.each([
    ["no prefix", Buffer.alloc(32, 1).toString("base64")],
    ["the prefix alone", "whsec_"],
    ["hex", `whsec_${"ab".repeat(32)}x`],
    ["url-safe base64", "whsec_ab-_"],
    ["spaces", "whsec_ AAAA"],
  ])("refuses %s", (_name, text) => {
    expect(() => parseWebhookKey(text)).toThrow(/whsec_ followed by standard base64/);
  });
});
