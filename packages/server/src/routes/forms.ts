/**
 * @module routes/forms
 * A form's responses (spec v2-gateway section 4, as AutoCertificate calls it):
 * `GET /{flock}/form/{uid}/responses/` (and with `sheep_form`), on both API surfaces. The
 * list wrapper over the non-deleted `form_response` records whose `form_ref` is the form's
 * URI, with the generic list's filters and paging, newest first, references inside `data`
 * expanded to `{display_value, ref}` as in the single-record shape.
 */
import { badRequest, cutDisplayValue, parseListQuery, recordUri, referencedKeys, toListElement, toSingleEnvelope, type ListQuery, type RecordKey, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import { liveRecord } from "../gateway/records.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import { listQueryParams } from "../openapi/list-query.js";
import type { Surface } from "../http/surface.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The form types whose responses are served. */
export const FORM_TYPES = ["form", "sheep_form"] as const;

/** One of `FORM_TYPES`. */
type FormType = (typeof FORM_TYPES)[number];

/**
 * The form-response lists, one per form type: serve each at `/api/{v1,v2}/:flock/<type>/:uid/responses`.
 *
 * @example
 * const forms = formRoutes(engine, guards, "v1"); route(app, "GET", "/api/v1/:flock/form/:uid/responses", forms.listFormResponses);
 */
export function formRoutes(engine: RouteEngine, guards: RouteGuards, surface: Surface) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    listFormResponses: [describeResponses("form"), ...guard, listResponsesOf("form")],
    listSheepFormResponses: [describeResponses("sheep_form"), ...guard, listResponsesOf("sheep_form")],
  } as const;

  function describeResponses(formType: FormType): MiddlewareHandler {
    return documented({
      tag: "forms",
      summary: `A ${formType}'s responses, newest first, references expanded`,
      description: "The list wrapper over the form's non-deleted form_response records (form_ref is the form's URI), with the list filters and paging (limit is page_size); contact_ref, form_ref and every URI in context_ref are {display_value, ref}. An unknown or deleted form is a 404.",
      auth: "key",
      query: listQueryParams(surface),
      ok: { status: 200, description: "one page, newest first", schema: "ListWrapper" },
      errors: [400, 403, 404],
    });
  }

  /** The handler listing the responses to a form of `formType`. */
  function listResponsesOf(formType: FormType) {
    return async function listResponses(c: Context<AppEnv, "/:flock/form/:uid/responses">) {
      const { flock, uid } = c.req.param();
      const form = await liveRecord(engine, flock, formType, uid);
      const query = parseListQuery(new URL(c.req.url).searchParams, { surface, now: clock.now() });
      if (query.mode === "OR" && query.filters.length > 0) {
        throw badRequest("bad mode", "mode OR is not accepted on a form's responses: the form's own condition must hold for every response; use AND");
      }
      const formUri = recordUri(flock, formType, form.id);
      const scoped: ListQuery = {
        ...query,
        mode: "AND",
        states: ["updated"],
        filters: [...query.filters, { field: "form_ref", meta: false, op: "eq", values: [{ text: formUri }] }],
      };
      const { total, records } = await _newestFirst(engine, flock, scoped);
      return c.json({
        grand_total: total,
        total,
        page: query.page,
        page_size: query.pageSize,
        pages: Math.ceil(total / query.pageSize),
        links: [],
        results: await _expanded(engine, flock, records),
        formatted_results: [],
      });
    };
  }
}

// --- internal ---

const RESPONSE_TYPE = "form_response";

/**
 * The page `query.page` of the matches, latest created first. Lists run in creation order,
 * so the newest-first page is a range counted from the end of that order: read with the
 * same page size, it spans at most two pages of it.
 */
async function _newestFirst(engine: RouteEngine, flock: string, query: ListQuery): Promise<{ total: number; records: StoredRecord[] }> {
  const size = query.pageSize;
  const { total } = await engine.list(flock, RESPONSE_TYPE, { ...query, page: 1, pageSize: 1 });
  const end = total - (query.page - 1) * size;
  if (end <= 0) return { total, records: [] };
  const start = Math.max(0, end - size);
  const first = Math.floor(start / size) + 1;
  const last = Math.floor((end - 1) / size) + 1;
  const rows: StoredRecord[] = [];
  for (let page = first; page <= last; page++) rows.push(...(await engine.list(flock, RESPONSE_TYPE, { ...query, page, pageSize: size })).records);
  const offset = start - (first - 1) * size;
  return { total, records: rows.slice(offset, offset + (end - start)).reverse() };
}

/** List elements whose data references (same flock) are `{display_value, ref}`, read in one batch. */
async function _expanded(engine: RouteEngine, flock: string, records: readonly StoredRecord[]) {
  const keys = new Map<string, RecordKey>();
  for (const r of records) for (const k of referencedKeys(r)) keys.set(`${k.type}/${k.id}`, k);
  const expanded = new Map<string, string>();
  if (keys.size > 0) {
    const wanted = [...keys.values()];
    const found = await engine.read.getDisplayValues(flock, wanted);
    for (const f of found) expanded.set(recordUri(flock, f.type, f.id), cutDisplayValue(f.displayValue));
  }
  return records.map((r) => ({ ...toListElement(r), data: toSingleEnvelope(r, expanded).data }));
}
