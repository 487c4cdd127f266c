import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, newToken } from "./tokens.js";

describe("tokens", () => {
  it("issues 64 lower-case hex characters, different each time", () => {
    const tokens = new Set(Array.from({ length: 50 }, newToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hashes with SHA-256 (known vector) and never returns the token itself", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const t = newToken();
    expect(hashToken(t)).not.toBe(t);
    expect(hashToken(t)).toBe(hashToken(t));
  });

  it("hashes any text as its UTF-8 bytes, as the stored hashes were made", () => {
    for (const t of ["é☃", "\u{1F600}", "a\ud800b", "x".repeat(512)]) {
      expect(hashToken(t)).toBe(createHash("sha256").update(t, "utf8").digest("hex"));
    }
  });
});
