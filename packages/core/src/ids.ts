/**
 * @module ids
 * Record ids: 24 lower-case hex characters, time-ordered like the hosted service's ids
 * (4 bytes of seconds, 5 random bytes, a 3-byte counter), so sorting by id follows creation.
 */
import type { Clock } from "./time.js";

/** Produces a new record id each call. */
export type IdSource = () => string;

export const RECORD_ID_RE = /^[0-9a-f]{24}$/;

/** True when `s` has the shape of a record id. */
export function isRecordId(s: string): boolean {
  return RECORD_ID_RE.test(s);
}

/**
 * Ids from the clock plus randomness (Web Crypto, available on Node 20+).
 *
 * @example
 * const nextId = createIdSource(systemClock); nextId(); // "6930f1c2a1b2c3d4e5000001"
 */
export function createIdSource(clock: Clock, random: (bytes: Uint8Array) => void = _webRandom): IdSource {
  const rnd = new Uint8Array(5);
  random(rnd);
  const middle = _hex(rnd);
  const start = new Uint8Array(3);
  random(start);
  let counter = (start[0]! << 16) | (start[1]! << 8) | start[2]!;
  return () => {
    const secs = Math.floor(clock.now().getTime() / 1000) >>> 0;
    counter = (counter + 1) & 0xffffff;
    return secs.toString(16).padStart(8, "0") + middle + counter.toString(16).padStart(6, "0");
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

function _webRandom(bytes: Uint8Array): void {
  globalThis.crypto.getRandomValues(bytes);
}

function _hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
