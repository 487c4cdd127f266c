/**
 * The response cache answers only under the generation an entry was built in, refuses
 * text read under an older generation, stays within its bounds, and keeps nothing for a
 * storage without a change generation.
 */
import { createMemoryStorage, type Storage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createResponseCache } from "./response-cache.js";

/** A storage whose generation the test moves. */
function _storage(): { storage: Storage; bump: () => void } {
  let gen = 0;
  return { storage: { ...createMemoryStorage(), changeGeneration: () => gen }, bump: () => (gen += 1) };
}

describe("createResponseCache", () => {
  it("answers under the same generation and forgets everything when it moves", () => {
    const { storage, bump } = _storage();
    const cache = createResponseCache(storage);
    const g = cache.generation()!;
    cache.set("a", g, "{\"a\":1}");
    expect(cache.get("a", g)).toBe("{\"a\":1}");
    expect(cache.get("b", g)).toBeUndefined();
    bump();
    const next = cache.generation()!;
    expect(cache.get("a", next)).toBeUndefined();
    cache.set("b", next, "{}");
    expect(cache.size()).toBe(1);
  });

  it("does not keep text read under a generation that has since moved", () => {
    const { storage, bump } = _storage();
    const cache = createResponseCache(storage);
    const g = cache.generation()!;
    bump();
    cache.set("a", g, "stale");
    expect(cache.get("a", g)).toBeUndefined();
    expect(cache.get("a", cache.generation()!)).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it("stays within its entry and size bounds", () => {
    const { storage } = _storage();
    const cache = createResponseCache(storage, { maxEntries: 3, maxChars: 10 });
    const g = cache.generation()!;
    for (const k of ["a", "b", "c", "d"]) cache.set(k, g, "x");
    expect(cache.size()).toBeLessThanOrEqual(3);
    expect(cache.get("d", g)).toBe("x");
    cache.set("e", g, "1234567890");
    expect(cache.get("d", g)).toBeUndefined();
    expect(cache.get("e", g)).toBe("1234567890");
    cache.set("big", g, "12345678901");
    expect(cache.get("big", g)).toBeUndefined();
    cache.set("e", g, "1234");
    cache.set("f", g, "12345");
    expect(cache.get("e", g)).toBe("1234");
    expect(cache.get("f", g)).toBe("12345");
  });

  it("caches nothing when the storage has no change generation", () => {
    const cache = createResponseCache({ ...createMemoryStorage(), changeGeneration: () => undefined });
    expect(cache.generation()).toBeUndefined();
  });
});
