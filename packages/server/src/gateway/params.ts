/**
 * @module gateway/params
 * Request parameters and paging of the v2 gateway paths (spec v2-gateway section 0). The
 * hosted service puts most inputs in the query string, also on POST and PUT; we read them
 * there and from a JSON or form-encoded body, a body value winning over a query value of
 * the same name. Paging is `page` (1..MAX_PAGE, default 1) and `page_size` (1..1500, its
 * default given per path; `limit` is its other name, as on every list); anything else is a
 * 400 naming the parameter and what is accepted.
 */
import { badRequest, MAX_PAGE, MAX_PAGE_SIZE } from "@records-service/core";
import type { Context } from "hono";
import { bodyKind, readBodyBytes, readFields, readOptionalJsonObject, unsupportedBody } from "../http/body.js";
import type { AppEnv } from "../http/env.js";

/** The parameters of one gateway request: query values overlaid by body values. */
export interface GatewayParams {
  /** The value as text (numbers and booleans of a JSON body as written), or undefined when absent or not a scalar. */
  get(name: string): string | undefined;
  /** The value as sent: a string from the query or a form, any JSON value from a JSON body. */
  value(name: string): unknown;
  /** Every value of a repeated query parameter (`?tag=a&tag=b`), or a JSON array's scalars; body wins as for `get`. */
  all(name: string): string[];
  /** True when the parameter was given (in the query or the body), even empty. */
  has(name: string): boolean;
  /** Every parameter name given. */
  names(): string[];
}

/** `page` and `page_size` of a paged gateway path. */
export interface GatewayPaging {
  page: number;
  pageSize: number;
}

/** The paging keys a paged gateway answer adds beside the vendor's (spec section 0, our choice). */
export interface PageInfo {
  page: number;
  page_size: number;
  total: number;
  pages: number;
}

/**
 * Reads the request's parameters: the query string, then a JSON object or form-encoded
 * (or multipart text) body on top. GET, HEAD and DELETE bodies are not read. An empty body
 * adds nothing; a body of another content type, invalid JSON or a JSON value that is not
 * an object is a 400.
 *
 * @example
 * const params = await readGatewayParams(c);
 * params.get("status") // "attended" from ?status=attended or {"status": "attended"}
 */
export async function readGatewayParams(c: Context<AppEnv>): Promise<GatewayParams> {
  const url = new URL(c.req.url);
  const query = url.searchParams;
  const body = await _readBody(c);
  return {
    get: (name) => (Object.hasOwn(body, name) ? _text(body[name]) : (query.get(name) ?? undefined)),
    value: (name) => (Object.hasOwn(body, name) ? body[name] : (query.get(name) ?? undefined)),
    all: (name) => {
      if (!Object.hasOwn(body, name)) return query.getAll(name);
      const value = body[name];
      const list = Array.isArray(value) ? value : [value];
      return list.map(_text).filter((s): s is string => s !== undefined);
    },
    has: (name) => Object.hasOwn(body, name) || query.has(name),
    names: () => [...new Set([...query.keys(), ...Object.keys(body)])],
  };
}

/**
 * `page` and `page_size` (or `limit`) of a paged path. `page` defaults to 1, `page_size` to
 * `defaultPageSize`; `page_size` wins over `limit` when both are given, both checked.
 *
 * @example
 * readPaging(params, 250) // { page: 1, pageSize: 250 }; "page_size=abc" → 400 "bad page_size"
 */
export function readPaging(params: Pick<GatewayParams, "get">, defaultPageSize: number): GatewayPaging {
  const page = _whole("page", params.get("page"), MAX_PAGE) ?? 1;
  const limit = _whole("limit", params.get("limit"), MAX_PAGE_SIZE);
  const pageSize = _whole("page_size", params.get("page_size"), MAX_PAGE_SIZE) ?? limit ?? defaultPageSize;
  return { page, pageSize };
}

/**
 * The page's slice of an in-memory list, for paths that build their answer from a bounded
 * set of records.
 *
 * @example
 * pageOf([1, 2, 3], { page: 2, pageSize: 2 }) // [3]
 */
export function pageOf<T>(items: readonly T[], paging: GatewayPaging): T[] {
  const start = (paging.page - 1) * paging.pageSize;
  return items.slice(start, start + paging.pageSize);
}

/**
 * `{page, page_size, total, pages}` for a paged answer; `pages` is `ceil(total / page_size)`
 * (0 when nothing matches), as in the list wrapper.
 *
 * @example
 * pageInfo(30, { page: 1, pageSize: 25 }) // { page: 1, page_size: 25, total: 30, pages: 2 }
 */
export function pageInfo(total: number, paging: GatewayPaging): PageInfo {
  return { page: paging.page, page_size: paging.pageSize, total, pages: Math.ceil(total / paging.pageSize) };
}

/**
 * A required text parameter: missing or empty is a 400 naming it.
 *
 * @example
 * requiredParam(params, "email") // "ada@example.org"
 */
export function requiredParam(params: Pick<GatewayParams, "get">, name: string, accepted = "a value"): string {
  const value = params.get(name);
  if (value === undefined || value.trim() === "") throw badRequest(`missing ${name}`, `the parameter ${name} is required: send ${accepted}`);
  return value;
}

// --- internal ---

const _NO_BODY = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

async function _readBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (_NO_BODY.has(c.req.method)) return {};
  const kind = bodyKind(c);
  if (kind === "json") return (await readOptionalJsonObject(c)) ?? {};
  if (kind === "form" || kind === "multipart") return { ...(await readFields(c)) };
  // `fetch(url, { body: JSON.stringify(x) })` labels the body text/plain: read it as the JSON it is.
  if (_isTextPlain(c)) return (await readOptionalJsonObject(c)) ?? {};
  // Another content type is fine with nothing in it (some clients label an empty PUT oddly).
  if ((await readBodyBytes(c)).byteLength === 0) return {};
  throw unsupportedBody(c, "JSON or form-encoded parameters");
}

function _isTextPlain(c: Context<AppEnv>): boolean {
  return (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "text/plain";
}

function _text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A whole number from 1 to `max` in plain digits, or undefined when absent. */
function _whole(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (n >= 1 && n <= max) return n;
  throw badRequest(`bad ${name}`, `${name} ${JSON.stringify(raw.slice(0, 40))} is not accepted; use a whole number from 1 to ${max}`);
}
