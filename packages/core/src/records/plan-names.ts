/**
 * @module records/plan-names
 * A membership's display value names its plan (the `membership_type` record it references)
 * and its number. Deriving is pure, so the plan's name is looked up here, in the commit
 * step every write goes through: one `getDisplayValues` read for all the memberships of a
 * change set, before it is applied.
 */
import { membershipDisplayValue, cutDisplayValue } from "../schema/display.js";
import { parseRecordUri } from "../schema/references.js";
import { MEMBERSHIP_TYPES } from "../schema/resource-types.js";
import type { RecordWrite } from "../model/change-set.js";
import type { RecordKey } from "../model/record.js";
import type { EngineContext } from "./types.js";

/**
 * Sets the display value of each membership written in `writes` whose `membership_type`
 * references a record of its flock, to that plan's display value and the number. Writes
 * are changed in place (they are the records the operation returns).
 *
 * @example
 * await namePlans(ctx, changes.records ?? []); // member → "Gold 0042"
 */
export async function namePlans(ctx: EngineContext, writes: readonly RecordWrite[]): Promise<void> {
  const wanted = new Map<string, { flock: string; key: RecordKey }>();
  for (const w of writes) {
    const uri = _planUri(w);
    if (uri) wanted.set(uri.text, { flock: w.record.flock, key: { type: uri.type, id: uri.id } });
  }
  if (wanted.size === 0) return;
  const names = new Map<string, string>();
  for (const [flock, keys] of _byFlock(wanted)) {
    const rows = await ctx.storage.getDisplayValues(flock, keys);
    for (const r of rows) names.set(`/${flock}/${r.type}/${r.id}/`, r.displayValue);
  }
  for (const w of writes) {
    const uri = _planUri(w);
    const plan = uri ? names.get(uri.text) : undefined;
    if (plan === undefined) continue;
    const named = membershipDisplayValue(w.record.data, plan);
    if (named) w.record.displayValue = cutDisplayValue(named);
  }
}

// --- internal ---

function _planUri(w: RecordWrite): { text: string; type: string; id: string } | undefined {
  if (!MEMBERSHIP_TYPES.includes(w.record.type)) return undefined;
  const raw = w.record.data["membership_type"];
  if (typeof raw !== "string") return undefined;
  const uri = parseRecordUri(raw);
  return uri && uri.flock === w.record.flock ? { text: raw, type: uri.type, id: uri.id } : undefined;
}

function _byFlock(wanted: Map<string, { flock: string; key: RecordKey }>): Map<string, RecordKey[]> {
  const out = new Map<string, RecordKey[]>();
  for (const { flock, key } of wanted.values()) {
    const list = out.get(flock) ?? [];
    list.push(key);
    out.set(flock, list);
  }
  return out;
}
