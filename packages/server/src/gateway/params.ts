/**
 * @module gateway/params
 * Inputs and paging of the gateway paths (spec v2-gateway section 0): parameters are read
 * from the query string and from a JSON or form-encoded body (a body value wins over a
 * query value of the same name); `page` (integer ≥ 1) and `page_size` (1..1500) are checked
 * strictly, anything else being a 400.
 */
import { badRequest, MAX_PAGE } from "@records-service/core";
import type { Context } from "hono";
import { bodyKind, readFields, readOptionalJsonObject } from "../http/body.js";
import type { AppEnv } from "../http/env.js";

/** Largest `page_size` on a gateway path. */
export const MAX_GATEWAY_PAGE_SIZE = 1500;

/** A page request and how to describe the page in an answer. */
export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * The text parameters of a request: the query's first values, then the body's (JSON scalars
 * as text, or form fields) over them. GET and HEAD read the query only.
 *
 * @example
 * const { person_uri, status } = await gatewayParams(c);
 */
export async function gatewayParams(c: Context<AppEnv>): Promise<Record<string, string>> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(c.req.query())) if (typeof v === "string") out[k] = v;
  if (c.req.method === "GET" || c.req.method === "HEAD") return out;
  const kind = bodyKind(c);
  if (kind === "json") {
    const body = await readOptionalJsonObject(c);
    for (const [k, v] of Object.entries(body ?? {})) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = String(v);
    }
  } else if (kind === "form" || kind === "multipart") {
    Object.assign(out, await readFields(c));
  }
  return out;
}

/**
 * `page` and `page_size` from `params`: absent ones take the defaults; a value that is not
 * a whole number in range is a 400 naming it.
 *
 * @example
 * readPaging({ page_size: "abc" }, 250) // throws 400 "invalid page_size"
 */
export function readPaging(params: Record<string, string | undefined>, defaultPageSize: number): Paging {
  return {
    page: _int(params, "page", 1, MAX_PAGE, 1),
    pageSize: _int(params, "page_size", 1, MAX_GATEWAY_PAGE_SIZE, defaultPageSize),
  };
}

/**
 * The page of `items` and the paging keys every paged gateway answer carries.
 *
 * @example
 * pageOf([1, 2, 3], { page: 2, pageSize: 2 }) // { items: [3], page: 2, page_size: 2, total: 3, pages: 2 }
 */
export function pageOf<T>(items: readonly T[], paging: Paging) {
  const start = (paging.page - 1) * paging.pageSize;
  return {
    items: items.slice(start, start + paging.pageSize),
    page: paging.page,
    page_size: paging.pageSize,
    total: items.length,
    pages: Math.ceil(items.length / paging.pageSize),
  };
}

// --- internal ---

function _int(params: Record<string, string | undefined>, name: string, min: number, max: number, fallback: number): number {
  const raw = params[name];
  if (raw === undefined) return fallback;
  const n = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= min && n <= max)) {
    throw badRequest(`invalid ${name}`, `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return n;
}
