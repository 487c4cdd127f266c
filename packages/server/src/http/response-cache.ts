/**
 * @module http/response-cache
 * Serialized answers (JSON text) kept while the database is unchanged. A single record's
 * envelope depends on other records too (referenced records' display values), so an entry
 * is not dropped per record: every entry is valid only for the storage's change generation
 * it was built under, and any write anywhere makes all of them stale. Storage without a
 * change generation is never cached against.
 */
import type { Storage } from "@records-service/core";

/** Bounds of `createResponseCache`. */
export interface ResponseCacheOptions {
  /** Entries kept before the cache is emptied. Default 10,000. */
  maxEntries?: number;
  /** Characters of text kept before the cache is emptied. Default 32 M (~64 MB). */
  maxChars?: number;
}

/** A cache of response texts by key. */
export interface ResponseCache {
  /** The current generation, or undefined when nothing can be cached; pass it to `set`. */
  generation(): number | undefined;
  /** The text cached for `key` under the current generation `gen`, if any. */
  get(key: string, gen: number): string | undefined;
  /** Keeps `text` for `key`, built from data read under generation `gen`. */
  set(key: string, gen: number, text: string): void;
  /** Entries held (for tests). */
  size(): number;
}

/**
 * A response cache over `storage`'s change generation. Emptied whenever it would grow past
 * its bounds (simpler than LRU, and a hot set refills at once).
 *
 * @example
 * const gen = cache.generation();
 * const text = gen === undefined ? undefined : cache.get(key, gen);
 */
export function createResponseCache(storage: Storage, opts: ResponseCacheOptions = {}): ResponseCache {
  const maxEntries = opts.maxEntries ?? 10_000;
  const maxChars = opts.maxChars ?? 32 * 1024 * 1024;
  const entries = new Map<string, string>();
  let held = -1;
  let chars = 0;

  const clear = () => {
    entries.clear();
    chars = 0;
  };

  return {
    generation: () => storage.changeGeneration(),
    get(key, gen) {
      if (gen !== held) return undefined;
      return entries.get(key);
    },
    set(key, gen, text) {
      // Text read under an older generation may already be stale: not kept.
      if (gen !== storage.changeGeneration()) return;
      if (gen !== held) {
        clear();
        held = gen;
      }
      if (text.length > maxChars) return;
      const old = entries.get(key);
      if (old !== undefined) chars -= old.length;
      else if (entries.size >= maxEntries) clear();
      if (chars + text.length > maxChars) clear();
      entries.set(key, text);
      chars += text.length;
    },
    size: () => entries.size,
  };
}
