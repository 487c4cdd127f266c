/**
 * @module indexes/demand
 * Fields that earn an index (issue 24): each list that had to scan a large collection for a
 * field counts as demand for that field, in a shared limit row (so the count is one for all
 * processes); past `earnAfter` such lists the field is asked for (`setFieldIndex`, source
 * `demand`) and the back-fill worker builds it. Collections smaller than `minRecords` never
 * earn one: a scan of them costs less than an index's writes.
 */
import { rulingRow } from "../model/field-index.js";
import type { ScanNote } from "../model/query.js";
import type { IndexRegistry } from "../storage/index-registry.js";
import type { SharedState } from "../storage/shared-state.js";

/** When scans earn a field its index. */
export interface IndexDemandOptions {
  /** Lists scanning for a field before it earns an index. */
  earnAfter: number;
  /** The least records a collection holds for its scans to count. */
  minRecords: number;
  /** How long a field's demand is remembered after its last scan, in ms. */
  windowMs: number;
}

/** The defaults (config `indexes`). */
export const INDEX_DEMAND_DEFAULTS: IndexDemandOptions = { earnAfter: 20, minRecords: 5_000, windowMs: 7 * 24 * 3600_000 };

/** The longest limit row key (`SharedState`). */
const _MAX_KEY = 200;

/**
 * The limit row key of a field's demand: its names as they are, or, when that is longer than
 * a limit row key may be (a field name of about 170 characters or more), their SHA-256
 * (WebCrypto, as every runtime core serves has it), so a long field earns its index as any
 * other.
 */
async function _demandKey(flock: string, type: string, field: string): Promise<string> {
  const names = JSON.stringify([flock, type, field]);
  const key = `index-demand:${names}`;
  if (key.length <= _MAX_KEY) return key;
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(names)));
  return `index-demand#${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Counts one scan of each of `scanned.fields`, and asks for the index of each field whose
 * count reaches `earnAfter`. Answers the fields asked for now.
 *
 * @example
 * const page = await storage.listRecords(flock, type, query);
 * if (page.scanned) await noteScannedFields(storage, now, flock, type, page.scanned, INDEX_DEMAND_DEFAULTS);
 */
export async function noteScannedFields(
  storage: IndexRegistry & Pick<SharedState, "updateLimit">,
  now: number,
  flock: string,
  type: string,
  scanned: ScanNote,
  opts: IndexDemandOptions,
): Promise<string[]> {
  if (scanned.collection < opts.minRecords) return [];
  const earned: string[] = [];
  for (const field of scanned.fields) {
    const key = await _demandKey(flock, type, field);
    const after = await storage.updateLimit(key, now, (current) => ({ value: String(Number(current ?? 0) + 1), expiresAt: now + opts.windowMs }));
    if (Number(after) < opts.earnAfter) continue;
    await storage.updateLimit(key, now, () => null); // counted again from naught
    // A field being built, or dropped by an operator, keeps its row: an operator's drop stands.
    if (rulingRow(await storage.listFieldIndexes(flock, type), flock, field)) continue;
    await storage.setFieldIndex(flock, type, field, "index", "demand");
    earned.push(field);
  }
  return earned;
}
