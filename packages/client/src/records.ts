/**
 * @module records
 * The generic record operations for one flock and resource type: get, list (one page or
 * every page), create, update, patch, delete, restore, obfuscate, touch, recalc, display,
 * avatar and file upload. Data is typed for the known types (person, data_event, core_event).
 */
import type { Requester } from "./http.js";
import { Query } from "./query.js";
import type { DataOf, InputOf, ListElement, ListPage, RecordEnvelope, Schemas } from "./types.js";

/** Which surface the record paths use: `/api/v1/...` (default) or `/api/v2/...`. */
export type Surface = "v1" | "v2";

/** A file to upload into a file field. */
export interface FileUpload {
  field: string;
  file: Blob;
  filename: string;
}

/** The operations on one resource type of one flock. */
export interface RecordsApi<T extends string> {
  get(id: string): Promise<RecordEnvelope<T>>;
  /** One page. */
  list(q?: Query<DataOf<T>>): Promise<ListPage<T>>;
  /** Every matching record, page after page (`page_size` from the query, default 100). */
  all(q?: Query<DataOf<T>>): AsyncIterable<ListElement<T>>;
  create(data: InputOf<T>): Promise<RecordEnvelope<T>>;
  /** PUT: the fields that changed (system-generated ones included). */
  update(id: string, data: InputOf<T>): Promise<Partial<DataOf<T>>>;
  /** PATCH: the same as update. */
  patch(id: string, data: InputOf<T>): Promise<Partial<DataOf<T>>>;
  delete(id: string): Promise<RecordEnvelope<T>>;
  restore(id: string): Promise<RecordEnvelope<T>>;
  obfuscate(id: string): Promise<RecordEnvelope<T>>;
  touch(id: string): Promise<RecordEnvelope<T>>;
  recalc(id: string, opts?: { force?: boolean }): Promise<Schemas["RecalcResult"]>;
  display(id: string): Promise<string>;
  /** The avatar image (the uploaded photo, or initials). */
  avatar(id: string, opts?: { format?: "png" | "svg"; size?: number }): Promise<Blob>;
  /** Uploads files into file fields (multipart PUT). */
  upload(id: string, files: FileUpload[]): Promise<Schemas["FileUpdate"]>;
}

/**
 * The records API over `request` (which already carries the key).
 *
 * @example
 * const people = createRecordsApi(request, "demo", "person");
 * await people.create({ first_name: "Ada" });
 */
export function createRecordsApi<T extends string>(request: Requester, flock: string, type: T, surface: Surface = "v1"): RecordsApi<T> {
  const base = `/api/${surface}/${encodeURIComponent(flock)}/${encodeURIComponent(type)}/`;
  const one = (id: string, action = "") => `${base}${encodeURIComponent(id)}/${action ? `${action}/` : ""}`;
  const api: RecordsApi<T> = {
    get: (id) => request("GET", one(id)),
    list: (q) => request("GET", base, { query: (q ?? new Query()).toSearchParams() }),
    async *all(q) {
      let page = q ?? new Query<DataOf<T>>();
      if (page.size === undefined) page = page.pageSize(100);
      for (let n = page.pageNumber; ; n += 1) {
        const result = await api.list(page.page(n));
        for (const r of result.results) yield r;
        if (n >= result.pages || result.results.length === 0) return;
      }
    },
    create: (data) => request("POST", base, { json: data }),
    update: (id, data) => request("PUT", one(id), { json: data }),
    patch: (id, data) => request("PATCH", one(id), { json: data }),
    delete: (id) => request("DELETE", one(id)),
    restore: (id) => request("POST", one(id, "restore")),
    obfuscate: (id) => request("PUT", one(id, "obfuscate")),
    touch: (id) => request("POST", one(id, "touch")),
    recalc: (id, opts = {}) => request("POST", one(id, "recalc"), opts.force === undefined ? {} : { json: { force: opts.force } }),
    display: async (id) => (await request<Schemas["DisplayValue"]>("GET", one(id, "display"))).display_value,
    async avatar(id, opts = {}) {
      // The avatar is served on the v2 surface only.
      const path = `/api/v2/${encodeURIComponent(flock)}/${encodeURIComponent(type)}/${encodeURIComponent(id)}/avatar/`;
      const res = await request<Response>("GET", path, { raw: true, query: { format: opts.format, size: opts.size } });
      return res.blob();
    },
    upload(id, files) {
      const form = new FormData();
      for (const f of files) form.append(f.field, f.file, f.filename);
      return request("PUT", one(id), { body: form });
    },
  };
  return api;
}
