/**
 * @module workers/due-candidates
 * The records a scheduler window may concern, read by index through the ordinary list
 * query: for each date-relative trigger's window, the records of its resource types whose
 * reference date starts with one of the window's prefixes (`windowPrefixes`), or, for the
 * record's own `created` column, whose creation time lies in the window. Plus the records
 * written in the window (`last_updated` in (lastRun, now], one `(collection, last_updated)`
 * index range per type), for core's catch-up of events due earlier on the day of the write.
 * Core's `dueEvents` then keeps exactly those due whose conditions hold.
 */
import { MAX_PAGE_SIZE, PAYMENT_PRECEDENCE, recordUri, type Filter, type ListQuery, type RecordReader, type StoredRecord, type TriggerWindow } from "@records-service/core";
import { windowPrefixes } from "./due-prefixes.js";

/**
 * Candidates of every window, each record once, paging through all matches.
 *
 * @example
 * const windows = dueWindows({ lastRun, now }, { triggerNames: ["expiring_2wk"] });
 * const records = await findDueCandidates(engine.read, "demo", windows);
 */
export async function findDueCandidates(reader: Pick<RecordReader, "listRecords">, flock: string, windows: readonly TriggerWindow[]): Promise<StoredRecord[]> {
  const found = new Map<string, StoredRecord>();
  const asked = new Set<string>();
  for (const w of windows) {
    for (const filters of _filterSets(w)) {
      for (const type of w.resourceTypes) {
        const key = `${type}\u0000${JSON.stringify(filters)}`;
        if (asked.has(key)) continue; // triggers of one field share most prefixes
        asked.add(key);
        for await (const r of _all(reader, flock, type, filters)) found.set(r.id, r);
      }
    }
  }
  return [...found.values()];
}

/**
 * The records of `types` created or updated in (afterText, upToText] (their `last_updated`),
 * for core's catch-up (`catchUpStart`).
 *
 * @example
 * await findWrittenSince(engine.read, "demo", ["membership"], "2026-03-02T09:59:00.000000", "2026-03-02T10:00:00.000000")
 */
export async function findWrittenSince(
  reader: Pick<RecordReader, "listRecords">,
  flock: string,
  types: readonly string[],
  afterText: string,
  upToText: string,
): Promise<StoredRecord[]> {
  const bound = (op: "gt" | "lte", text: string): Filter => ({ field: "last_updated", meta: true, op, values: [{ text }] });
  const out: StoredRecord[] = [];
  for (const type of new Set(types)) {
    for await (const r of _all(reader, flock, type, [bound("gt", afterText), bound("lte", upToText)])) out.push(r);
  }
  return out;
}

/**
 * The URIs among `records` that some live payment references (for `no_payment_*`): one
 * indexed lookup per record, on the payment field that pays for its type.
 */
export async function findPaidUris(reader: Pick<RecordReader, "listRecords">, records: readonly StoredRecord[]): Promise<Set<string>> {
  const paid = new Set<string>();
  for (const r of records) {
    const uri = recordUri(r.flock, r.type, r.id);
    for (const field of PAYMENT_FIELDS_FOR[r.type] ?? ALL_PAYMENT_FIELDS) {
      // References are stored as URIs; accept the URI without its trailing slash too.
      const filter: Filter = { field, meta: false, op: "eq", values: [{ text: uri }, { text: uri.slice(0, -1) }] };
      const page = await reader.listRecords(r.flock, "payment", _query([filter], 1, 1));
      if (page.total > 0) {
        paid.add(uri);
        break;
      }
    }
  }
  return paid;
}

/** The payment field that references a record of each type (contract: payment fields). */
const PAYMENT_FIELDS_FOR: Readonly<Record<string, readonly string[]>> = {
  member: ["membership_ref"],
  membership: ["membership_ref"],
  invoice: ["invoice_ref"],
};

const ALL_PAYMENT_FIELDS = PAYMENT_PRECEDENCE.map((p) => p.field);

// --- internal ---

/**
 * The filter sets to query. A data field gets one `startswith` filter per query: two range
 * filters on it would each be read as its own index range, each half the index.
 */
function _filterSets(w: TriggerWindow): Filter[][] {
  if (w.field === "created") {
    // The record's own column: one index range on (collection, created) takes both bounds.
    const bound = (op: "gt" | "lte", text: string): Filter => ({ field: "created", meta: true, op, values: [{ text }] });
    return [[bound("gt", w.afterText), bound("lte", w.upToText)]];
  }
  return windowPrefixes(w.afterText, w.upToText).map((p) => [{ field: w.field, meta: false, op: "startswith", values: [{ text: p }] }]);
}

async function* _all(reader: Pick<RecordReader, "listRecords">, flock: string, type: string, filters: Filter[]): AsyncGenerator<StoredRecord> {
  for (let page = 1; ; page += 1) {
    const result = await reader.listRecords(flock, type, _query(filters, page, MAX_PAGE_SIZE));
    yield* result.records;
    if (result.records.length < MAX_PAGE_SIZE || page * MAX_PAGE_SIZE >= result.total) return;
  }
}

function _query(filters: Filter[], page: number, pageSize: number): ListQuery {
  return { filters, mode: "AND", states: ["updated"], page, pageSize };
}
