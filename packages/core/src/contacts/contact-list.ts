/**
 * @module contacts/contact-list
 * `contact`: the hosted service's read-only type spanning persons and organisations. A list
 * is the persons' matches followed by the organisations' (each in creation order), paged
 * as one list; each part is read by the adapter's own paged query, never by a scan.
 */
import { notFound } from "../errors.js";
import { isRecordId } from "../ids.js";
import { MAX_LIST_ANSWER_LENGTH } from "../query/limits.js";
import type { ListPage, ListQuery } from "../model/query.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import { CONTACT_TYPES } from "../schema/resource-types.js";
import type { StoredRecord } from "../model/record.js";

/**
 * The page of contacts (persons, then organisations) in `flock` matching `query`, and the
 * total over both types.
 *
 * @example
 * await listContacts(ctx, "demo", parseListQuery([["email__startswithi", "ada@"]], { surface: "v1", now }))
 */
export async function listContacts(ctx: EngineContext, flock: string, query: ListQuery): Promise<ListPage<StoredRecord>> {
  for (const type of CONTACT_TYPES) await requireFlockAndType(ctx, flock, type);
  const q: ListQuery = { ...query, maxDataLength: query.maxDataLength ?? MAX_LIST_ANSWER_LENGTH };
  let start = (query.page - 1) * query.pageSize;
  let need = query.pageSize;
  let total = 0;
  const records: StoredRecord[] = [];
  for (const type of CONTACT_TYPES) {
    const part = await _slice(ctx, flock, type, q, start, need);
    total += part.total;
    records.push(...part.records);
    need -= part.records.length;
    start = Math.max(0, start - part.total);
  }
  return { total, records };
}

/**
 * The contact `id`: the person or organisation with that id, in any state; 404 otherwise.
 */
export async function getContact(ctx: EngineContext, flock: string, id: string): Promise<StoredRecord> {
  for (const type of CONTACT_TYPES) await requireFlockAndType(ctx, flock, type);
  if (!isRecordId(id)) throw notFound("record not found", `'${id}' is not a record id (24 lower-case hexadecimal characters)`);
  for (const type of CONTACT_TYPES) {
    const r = await ctx.storage.getRecord(flock, type, id);
    if (r && r.flock === flock && r.type === type) return r;
  }
  throw notFound("record not found", `no person or organisation with id '${id}' in flock '${flock}'`);
}

// --- internal ---

/**
 * Up to `count` matches of `type` from position `start`, and the type's total. Positions
 * need not fall on a page boundary: the two pages of size `count` around them are read.
 */
async function _slice(
  ctx: EngineContext,
  flock: string,
  type: string,
  q: ListQuery,
  start: number,
  count: number,
): Promise<ListPage<StoredRecord>> {
  if (count <= 0) {
    // Only the total is wanted: the smallest page.
    const { total } = await ctx.storage.listRecords(flock, type, { ...q, page: 1, pageSize: 1 });
    return { total, records: [] };
  }
  const page = Math.floor(start / count) + 1;
  const first = await ctx.storage.listRecords(flock, type, { ...q, page, pageSize: count });
  const skip = start - (page - 1) * count;
  let records = first.records.slice(skip);
  if (skip > 0 && records.length < count && start + records.length < first.total) {
    const second = await ctx.storage.listRecords(flock, type, { ...q, page: page + 1, pageSize: count });
    records = records.concat(second.records.slice(0, count - records.length));
  }
  return { total: first.total, records: records.slice(0, count) };
}
