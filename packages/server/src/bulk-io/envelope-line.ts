/**
 * @module bulk-io/envelope-line
 * The line format of `export` and `import`: one record envelope a line, its keys always in
 * the same order, so that the same records always export to the same bytes:
 *
 *   {"type":"person","id":"…","state":"updated","created":"…","last_updated":"…","version":1,"data":{…}}
 *
 * and the reading side: an imported row is either such an envelope (a `data` object) or a
 * flat object of fields (a CSV row, a hand-written NDJSON line) whose envelope keys, when
 * present, are taken out of the fields.
 */
import type { StoredRecord } from "@records-service/core";

/** The envelope keys a flat row may carry beside its fields. */
const ENVELOPE_KEYS = ["type", "id", "state", "created", "last_updated", "version"] as const;

/** What an imported row says about its record, before any check. */
export interface RowParts {
  type?: unknown;
  id?: unknown;
  state?: unknown;
  created?: unknown;
  last_updated?: unknown;
  version?: unknown;
  data: Record<string, unknown>;
}

/** The export line of `record` (without the newline). */
export function envelopeLine(record: StoredRecord): string {
  return JSON.stringify({
    type: record.type,
    id: record.id,
    state: record.state,
    created: record.created,
    last_updated: record.lastUpdated,
    version: record.version,
    data: record.data,
  });
}

/**
 * The parts of an imported row: an envelope's keys and its `data`, or a flat row's
 * envelope keys and the rest as fields. Undefined when `row` is not a JSON object, or its
 * `data` is not one.
 */
export function rowParts(row: unknown): RowParts | undefined {
  if (!_isObject(row)) return undefined;
  const out: RowParts = { data: {} };
  const meta = out as unknown as Record<string, unknown>;
  if ("data" in row) {
    if (!_isObject(row.data)) return undefined;
    for (const k of ENVELOPE_KEYS) if (row[k] !== undefined) meta[k] = row[k];
    out.data = row.data;
    return out;
  }
  for (const [k, v] of Object.entries(row)) {
    if ((ENVELOPE_KEYS as readonly string[]).includes(k)) meta[k] = v;
    else out.data[k] = v;
  }
  return out;
}

function _isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
