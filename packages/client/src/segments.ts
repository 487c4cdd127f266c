/**
 * @module segments
 * The segments gateway (`/segments/v2/{flock}`) as client methods: segment lists, trees,
 * create, count, config, members (look-up, pages, the XLSX export and the delete action,
 * both queued as tasks) and fieldsets. Answers are typed from the server's OpenAPI document.
 */
import type { RequestOptions } from "./http.js";
import type { Schemas } from "./types.js";

type Request = <T>(method: string, path: string, o?: RequestOptions) => Promise<T>;

/** Paging of the segment lists: `page` from 1, `page_size` 1..1500 (default 25). */
export interface SegmentPaging {
  page?: number;
  page_size?: number;
}

/** The view contexts a segment may be listed under. */
export type ViewContext =
  | "comments"
  | "crm"
  | "documents"
  | "events"
  | "forms"
  | "giving"
  | "membership"
  | "minimal_membership_directory"
  | "reservations"
  | "teams"
  | "vehicles";

/** The segments gateway of one flock. */
export interface SegmentsApi {
  /** Active segments, by name, one page. */
  list(opts?: SegmentPaging): Promise<Schemas["SegmentList"]>;
  /** Every live segment, inactive ones too, one page. */
  all(opts?: SegmentPaging): Promise<Schemas["SegmentList"]>;
  /** Active segments of a view context, one page. */
  inContext(context: ViewContext, opts?: SegmentPaging): Promise<Schemas["SegmentList"]>;
  /** Active segments whose name contains `name` (case ignored), one page. */
  find(name: string, opts?: SegmentPaging): Promise<Schemas["SegmentList"]>;
  /** Segments nested under their parents. */
  trees(): Promise<Schemas["SegmentTrees"]>;
  /** Creates a segment (every rule checked first). */
  create(segment: Schemas["SegmentCreateBody"]): Promise<Schemas["SegmentPacket"]>;
  /** How many records the segment holds now. */
  count(segmentId: string): Promise<Schemas["SegmentCount"]>;
  /** How a client shows the segment's members. */
  config(segmentId: string): Promise<Schemas["SegmentConfig"]>;
  /** Up to `limit` (1..100, default 20) members whose display value contains `q`. */
  lookup(segmentId: string, q?: string, limit?: number): Promise<Schemas["SegmentLookup"]>;
  /** One page of members (`verbose`: the single-record shape). */
  members(segmentId: string, opts?: SegmentPaging & { q?: string; verbose?: boolean }): Promise<Schemas["ListWrapper"]>;
  /** Queues the XLSX export into a journal record; the receipt names the journal and the task. */
  exportXlsx(segmentId: string, opts?: { template?: string }): Promise<Schemas["SegmentReportReceipt"]>;
  /** Queues deleting the members (`safe_mode`: only count); the answer names the task. */
  deleteMembers(segmentId: string, opts?: Schemas["SegmentDeleteBody"]): Promise<Schemas["SegmentDeleteQueued"]>;
  /** Fieldsets, those applying to `resource` when given. */
  fieldsets(resource?: string): Promise<Schemas["FieldsetList"]>;
  /** Saves a fieldset. */
  createFieldset(fieldset: Schemas["FieldsetBody"]): Promise<Schemas["FieldsetSingle"]>;
  /** One fieldset. */
  fieldset(fieldsetId: string): Promise<Schemas["FieldsetSingle"]>;
  /** Deletes a fieldset (409 when locked). */
  deleteFieldset(fieldsetId: string): Promise<Schemas["FieldsetSingle"]>;
}

/** The segments gateway over `request`. */
export function createSegmentsApi(request: Request, flock: string): SegmentsApi {
  const base = `/segments/v2/${_seg(flock)}`;
  const one = (id: string) => `${base}/segment/${_seg(id)}`;
  return {
    list: (paging = {}) => request("GET", base, { query: { ...paging } }),
    all: (paging = {}) => request("GET", `${base}/all`, { query: { ...paging } }),
    inContext: (context, paging = {}) => request("GET", `${base}/${_seg(context)}`, { query: { ...paging } }),
    find: (name, paging = {}) => request("GET", `${base}/find`, { query: { name, ...paging } }),
    trees: () => request("GET", `${base}/trees`),
    create: (segment) => request("POST", `${base}/create`, { json: segment }),
    count: (id) => request("GET", `${one(id)}/count`),
    config: (id) => request("GET", `${one(id)}/config`),
    lookup: (id, q, limit) => request("GET", `${one(id)}/lookup`, { query: { q, limit } }),
    members: (id, opts = {}) => request("GET", `${one(id)}/all`, { query: { ...opts } }),
    exportXlsx: (id, opts = {}) => request("GET", `${one(id)}/all/xlsx`, { query: { ...opts } }),
    deleteMembers: (id, opts = {}) => request("POST", `${one(id)}/action/delete`, { json: opts }),
    fieldsets: (resource) => request("GET", `${base}/fieldset`, { query: { resource } }),
    createFieldset: (fieldset) => request("POST", `${base}/fieldset`, { json: fieldset }),
    fieldset: (id) => request("GET", `${base}/fieldset/${_seg(id)}`),
    deleteFieldset: (id) => request("DELETE", `${base}/fieldset/${_seg(id)}`),
  };
}

// --- internal ---

function _seg(s: string): string {
  return encodeURIComponent(s);
}
