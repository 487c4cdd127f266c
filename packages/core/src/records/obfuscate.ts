/**
 * @module records/obfuscate
 * What obfuscation leaves of a record's data (pure).
 */
import { newPersonData } from "../schema/person.js";
import { isRecordUri } from "../schema/references.js";

/**
 * The data after obfuscation. A person keeps only `hide_from_views`: every other field is
 * null, so the generated names are null and the display value is `an empty person`. Other
 * types keep their reference fields (a record URI, or a list of record URIs) so the audit
 * trail keeps its links, and every other field becomes null.
 *
 * @example
 * obfuscatedData("journal", { subject: "Call", contact_ref: "/demo/person/0123456789abcdef01234567/" })
 * // { subject: null, contact_ref: "/demo/person/0123456789abcdef01234567/" }
 */
export function obfuscatedData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  if (type === "person") return newPersonData({ hide_from_views: data.hide_from_views === true });
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(data)) out[field] = _isReference(value) ? value : null;
  return out;
}

// --- internal ---

function _isReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isRecordUri);
  return isRecordUri(value);
}
