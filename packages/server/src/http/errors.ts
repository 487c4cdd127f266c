/**
 * @module http/errors
 * The one place that turns a thrown error into a response. v1 paths answer
 * `{error, error_detail}`; v2 and signed-resource paths answer `{title, description}`
 * (contract, "Behaviour the spec leaves open"). No stack trace ever leaves the process.
 */
import { isRecordsError } from "@records-service/core";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** What an error becomes before it is shaped for its surface. */
export interface ErrorInfo {
  status: ContentfulStatusCode;
  error: string;
  detail: string;
  headers?: Record<string, string>;
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
    return { status: err.status as ContentfulStatusCode, error: err.message, detail: err.detail };
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

/** True for paths whose errors take the v2 shape: `/api/v2/...`, `/selfservice/v2/...`. */
export function isV2Path(path: string): boolean {
  return path.split("/")[2] === "v2";
}

/**
 * The error response in the shape of the path's surface.
 *
 * @example
 * errorResponse(c, { status: 404, error: "not found", detail: "no record 'x'" })
 * // v1: 404 {"error":"not found","error_detail":"no record 'x'"}
 */
export function errorResponse(c: Context, info: ErrorInfo): Response {
  const body = isV2Path(c.req.path)
    ? { title: info.error, description: info.detail }
    : { error: info.error, error_detail: info.detail };
  return c.json(body, info.status, info.headers);
}
