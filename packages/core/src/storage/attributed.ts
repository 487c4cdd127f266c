/**
 * @module storage/attributed
 * A Storage whose writes carry one attribution: `apply` and `finishJob` add it to every
 * change set that names none, so each change row they log says who made it. Everything
 * else is the wrapped Storage itself. What `engine.withAttribution` runs on.
 */
import type { Attribution } from "../model/attribution.js";
import type { ChangeSet } from "../model/change-set.js";
import type { Storage } from "./storage.js";

/**
 * `storage`, with `attribution` on the change sets it applies (a set that carries its own
 * keeps it).
 *
 * @example
 * const s = attributedStorage(storage, { actor: "ada", application: "Acme/Sync/2" });
 * await s.apply({ records: [...] }); // its change rows name ada and Acme/Sync/2
 */
export function attributedStorage(given: Storage, attribution: Attribution): Storage {
  // Re-attributing wraps the original again rather than stacking wrappers.
  const storage = _originals.get(given) ?? given;
  const stamp = (changes: ChangeSet): ChangeSet => (changes.attribution ? changes : { ...changes, attribution });
  const apply: Storage["apply"] = (changes) => storage.apply(stamp(changes));
  const finishJob: Storage["finishJob"] = (id, token, update, changes) =>
    storage.finishJob(id, token, update, changes === undefined ? undefined : stamp(changes));
  // A proxy rather than a copy: adapters may be proxies themselves, and every other member
  // must answer exactly as on the original (bound to it).
  const wrapped = new Proxy(storage, {
    get(target, key) {
      if (key === "apply") return apply;
      if (key === "finishJob") return finishJob;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  _originals.set(wrapped, storage);
  return wrapped;
}

// --- internal ---

/** Each wrapper's original Storage. */
const _originals = new WeakMap<Storage, Storage>();
