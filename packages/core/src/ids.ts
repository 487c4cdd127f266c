/**
 * @module ids
 * Record ids: 24 lower-case hex characters (96 bits), time-ordered:
 *
 *   SSSSSSSS MMM RRRRRRRRRRRRR
 *   |        |   └ 52 random bits, drawn afresh for every id (Web Crypto)
 *   |        └ the millisecond within that second, 000 to 3e7
 *   └ Unix seconds, 4 bytes (as the hosted service's ids start)
 *
 * So ids sort by creation time to the millisecond, and ids made within one millisecond sort
 * in random order (adapters keep insertion order themselves; nothing needs ids to be
 * monotonic within a millisecond). No part of an id is shared with, or counts on from,
 * another: two ids of one flock say nothing about the ids written between them beyond
 * their time, and guessing a neighbour means guessing 52 random bits.
 */
import type { Clock } from "./time.js";

/** Produces a new record id each call. */
export type IdSource = () => string;

export const RECORD_ID_RE = /^[0-9a-f]{24}$/;

/** Random bits in every id made by `createIdSource`. */
export const RECORD_ID_RANDOM_BITS = 52;

/** True when `s` has the shape of a record id. */
export function isRecordId(s: string): boolean {
  return RECORD_ID_RE.test(s);
}

/**
 * Ids from the clock plus fresh randomness for each id (Web Crypto, available on Node 20+;
 * `random` is for seeded benchmarks and tests).
 *
 * @example
 * const nextId = createIdSource(systemClock); nextId(); // "6930f1c21f43a9c07e18b25d"
 */
export function createIdSource(clock: Clock, random: (bytes: Uint8Array) => void = _webRandom): IdSource {
  // Random bytes are drawn in blocks (one call per 64 ids) and each byte is used once.
  const pool = new Uint8Array(_ID_BYTES * 64);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      random(pool);
      next = 0;
    }
    const ms = clock.now().getTime();
    const secs = Math.floor(ms / 1000);
    let tail = "";
    for (let i = 0; i < _ID_BYTES; i++) tail += _HEX[pool[next + i]!]!;
    next += _ID_BYTES;
    return (secs >>> 0).toString(16).padStart(8, "0") + (ms - secs * 1000).toString(16).padStart(3, "0") + tail.slice(0, 13);
  };
}

/** Deterministic ids for tests: `000000000000000000000001`, `...02`, ... */
export function createSequentialIds(prefix = ""): IdSource {
  let n = 0;
  return () => {
    n += 1;
    const tail = n.toString(16);
    return (prefix + "0".repeat(24)).slice(0, 24 - tail.length) + tail;
  };
}

// --- internal ---

/** Random bytes per id: 7 bytes give 14 hex digits, of which 13 (52 bits) are used. */
const _ID_BYTES = 7;
const _HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

function _webRandom(bytes: Uint8Array): void {
  globalThis.crypto.getRandomValues(bytes);
}
