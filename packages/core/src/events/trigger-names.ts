/**
 * @module events/trigger-names
 * Trigger names (`<event>_<variation>`, or the bare event when it has no variation),
 * checked against the event catalogue. An unknown name is a 400 that names it and offers
 * the closest known names.
 */
import { badRequest } from "../errors.js";
import { EVENT_CATALOGUE } from "./catalogue.js";
import type { Catalogue, EventEntry, VariationEntry } from "./types.js";

/** A trigger name, understood. */
export interface ParsedTrigger {
  name: string;
  event: string;
  /** The variation part, or null when the name is the bare event. */
  variation: string | null;
  /** The modifier's days as the spec's tables write them (`2wk` = 14); null when not date-relative. */
  offsetDays: number | null;
  /** Signed days from the reference date to the firing (`expiring_2wk` = -14); null when not date-relative. */
  fireOffsetDays: number | null;
  /** True when the event or its variation is deprecated. */
  deprecated: boolean;
  entry: EventEntry;
  /** The fixed variation, or null for a pattern variation such as `state_new_to_done`. */
  variationEntry: VariationEntry | null;
}

/**
 * The event and variation of a trigger name. Throws `RecordsError("bad_request")` naming
 * the name and suggesting close known names when the catalogue has no such trigger.
 *
 * @example
 * parseTriggerName("expiring_2wk") // { event: "expiring", variation: "2wk", offsetDays: 14, fireOffsetDays: -14, ... }
 * parseTriggerName("reservation_state_new_to_confirmed").variation // "state_new_to_confirmed"
 */
export function parseTriggerName(name: string, catalogue: Catalogue = EVENT_CATALOGUE): ParsedTrigger {
  const parsed = findTrigger(name, catalogue);
  if (parsed) return parsed;
  const close = suggestTriggerNames(name, catalogue);
  const hint = close.length > 0 ? `did you mean ${close.join(", ")}?` : "see docs/events.md for the trigger names";
  throw badRequest("unknown trigger", `unknown trigger "${name}": ${hint}`);
}

/** Like `parseTriggerName`, but undefined for an unknown name. */
export function findTrigger(name: string, catalogue: Catalogue = EVENT_CATALOGUE): ParsedTrigger | undefined {
  const fixed = catalogue.triggers.get(name);
  if (fixed) {
    const { entry, variation } = fixed;
    return {
      name,
      event: entry.event,
      variation: variation.name,
      offsetDays: variation.offsetDays,
      fireOffsetDays: variation.fireOffsetDays,
      deprecated: entry.deprecated || variation.deprecated,
      entry,
      variationEntry: variation,
    };
  }
  for (const entry of catalogue.events) {
    if (entry.patterns.length === 0 || !name.startsWith(`${entry.event}_`)) continue;
    const rest = name.slice(entry.event.length + 1);
    if (!entry.patterns.some((p) => p.regex.test(rest))) continue;
    return {
      name,
      event: entry.event,
      variation: rest,
      offsetDays: null,
      fireOffsetDays: null,
      deprecated: entry.deprecated,
      entry,
      variationEntry: null,
    };
  }
  return undefined;
}

/**
 * The trigger name of an event and variation; throws `bad_request` when the catalogue has
 * no such pair.
 *
 * @example
 * triggerName("lapsed", "90d") // "lapsed_90d"
 * triggerName("login", null) // "login"
 */
export function triggerName(event: string, variation: string | null, catalogue: Catalogue = EVENT_CATALOGUE): string {
  const name = variation === null ? event : `${event}_${variation}`;
  const parsed = parseTriggerName(name, catalogue);
  if (parsed.event !== event) {
    throw badRequest("unknown trigger", `event "${event}" has no variation "${String(variation)}"`);
  }
  return name;
}

/**
 * Every fixed trigger name of the catalogue, in catalogue order. Pattern variations
 * (`reservation_state_{from}_to_{to}`) are open-ended and not listed.
 */
export function listTriggerNames(options: { includeDeprecated?: boolean; catalogue?: Catalogue } = {}): string[] {
  const { includeDeprecated = true, catalogue = EVENT_CATALOGUE } = options;
  const names: string[] = [];
  for (const [name, { entry, variation }] of catalogue.triggers) {
    if (!includeDeprecated && (entry.deprecated || variation.deprecated)) continue;
    names.push(name);
  }
  return names;
}

/** Up to `max` known trigger names closest to `name` (edit distance), closest first. */
export function suggestTriggerNames(name: string, catalogue: Catalogue = EVENT_CATALOGUE, max = 3): string[] {
  const wanted = name.trim().toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 4));
  const scored: { name: string; d: number; near: number }[] = [];
  for (const candidate of catalogue.triggers.keys()) {
    const d = _distance(wanted, candidate);
    if (d <= limit) scored.push({ name: candidate, d, near: _nearness(wanted, candidate) });
  }
  scored.sort((a, b) => a.d - b.d || a.near - b.near || a.name.localeCompare(b.name));
  if (scored.length > 0) return scored.slice(0, max).map((s) => s.name);
  // Nothing close: a known event with an unknown variation still deserves its variations.
  const entry = catalogue.events.find((e) => wanted.startsWith(`${e.event}_`) || wanted === e.event);
  if (!entry) return [];
  return [...catalogue.triggers.entries()]
    .filter(([, t]) => t.entry === entry && !t.variation.deprecated)
    .map(([n]) => n)
    .slice(0, max);
}

// --- internal ---

/** Between equally distant names, prefer the nearer characters (`5wk` is nearer `4wk` than `1wk`). */
function _nearness(a: string, b: string): number {
  if (a.length !== b.length) return Number.MAX_SAFE_INTEGER;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a.charCodeAt(i) - b.charCodeAt(i));
  return sum;
}

/** Levenshtein distance (two rows). */
function _distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}
