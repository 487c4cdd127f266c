/**
 * @module http/errors
 * The one place that turns a thrown error into a response. v1 paths answer
 * `{error, error_detail}`; v2, gateway, self-service and signed-resource paths answer
 * `{title, description, error, type}` (spec v2-gateway section 0: `error` repeats `title`,
 * `type` is the status's machine-readable code). No stack trace ever leaves the process.
 */
import { isRecordsError, type ErrorLink } from "@records-service/core";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** What an error becomes before it is shaped for its surface. */
export interface ErrorInfo {
  status: ContentfulStatusCode;
  error: string;
  detail: string;
  headers?: Record<string, string>;
  /** A help link, added to the v2 body. */
  link?: ErrorLink;
  /** Set for errors nobody raised on purpose: the access log records it. */
  unexpected?: Error;
}

/** Short texts for statuses reached without a `RecordsError` (hono's own exceptions). */
const STATUS_TEXT: Record<number, [string, string]> = {
  400: ["bad request", "the request could not be read"],
  401: ["unauthorized", "send a valid API key as 'Authorization: Bearer <key>'"],
  403: ["forbidden", "this key has no access to that resource"],
  404: ["not found", "no such path"],
  405: ["method not allowed", "this path does not accept that method"],
  413: ["body too large", "the request body is larger than this server accepts"],
};

/**
 * Classifies any thrown value: `RecordsError` keeps its status and texts, hono's
 * `HTTPException` keeps its status, anything else is a 500 whose detail names no internals.
 */
export function describeError(err: unknown): ErrorInfo {
  if (isRecordsError(err)) {
    const info: ErrorInfo = { status: err.status as ContentfulStatusCode, error: err.message, detail: err.detail };
    if (Object.keys(err.headers).length > 0) info.headers = { ...err.headers };
    if (err.link) info.link = err.link;
    return info;
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const [error, detail] = STATUS_TEXT[status] ?? ["error", "the request failed"];
    return { status, error, detail: err.message && err.message !== error ? err.message : detail };
  }
  const unexpected = err instanceof Error ? err : new Error(String(err));
  return {
    status: 500,
    error: "internal error",
    detail: "the server failed to handle this request; it has been logged",
    unexpected,
  };
}

/** The machine-readable `type` of a v2 error body, by status (spec v2-gateway section 0). */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  429: "rate_limited",
  500: "server_error",
  501: "not_implemented",
  503: "unavailable",
};

/** The v2 error body's fields. */
interface ErrorBodyV2 {
  title: string;
  description: string;
  error: string;
  type: string;
}

/**
 * The `type` of a status: its entry in `ERROR_TYPES`, else the class's (`bad_request` for
 * other 4xx, `server_error` for other 5xx).
 */
function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "bad_request");
}

/**
 * The v2 error body for a status and texts.
 *
 * @example
 * v2ErrorBody(404, "not found", "no booking 'x' in flock demo")
 * // {"title":"not found","description":"no booking 'x' in flock demo","error":"not found","type":"not_found"}
 */
function v2ErrorBody(status: number, title: string, description: string): ErrorBodyV2 {
  return { title, description, error: title, type: errorType(status) };
}

/**
 * True for paths whose errors take the v2 shape: `/api/v2/...`, `/selfservice/v2/...` and
 * every gateway surface (`/search/v2`, `/audit/v2`, `/events/v2`, `/segments/v2`, ...).
 */
export function isV2Path(path: string): boolean {
  return path.split("/")[2] === "v2";
}

/**
 * The one error handler: every error answer of the app (`app.onError`, the 404 of an unknown
 * path, the 405 of a method a path does not accept) passes here. A `RecordsError` keeps its
 * status, texts and headers; a 401 says which scheme to use unless its thrower said; an
 * unexpected error is kept on the context for the access log.
 *
 * @example
 * app.onError(answerError);
 * app.notFound((c) => answerError(notFound("not found", `no such path: ${c.req.path}`), c));
 */
export function answerError(err: unknown, c: Context): Response {
  const info = describeError(err);
  if (info.unexpected) c.set("unexpectedError", info.unexpected);
  if (info.status === 401) info.headers = { "WWW-Authenticate": 'Bearer realm="records"', ...info.headers };
  return errorResponse(c, info);
}

/**
 * The error response in the shape of the path's surface.
 *
 * @example
 * errorResponse(c, { status: 404, error: "not found", detail: "no record 'x'" })
 * // v1: 404 {"error":"not found","error_detail":"no record 'x'"}
 * // v2: 404 {"title":"not found","description":"no record 'x'","error":"not found","type":"not_found"}
 */
function errorResponse(c: Context, info: ErrorInfo): Response {
  const body = isV2Path(c.req.path)
    ? { ...v2ErrorBody(info.status, info.error, info.detail), ...(info.link ? { link: info.link } : {}) }
    : { error: info.error, error_detail: info.detail };
  return c.json(body, info.status, info.headers);
}
