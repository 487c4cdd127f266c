/**
 * @module errors
 * One error class for every answer that is not a success: its HTTP status and the body as
 * the server sent it (v1 `{error, error_detail}` or v2 `{title, description, error, type}`).
 */
import type { ErrorV1, ErrorV2 } from "./types.js";

/** A failed call. `title` and `detail` read either body shape. */
export class RecordsApiError extends Error {
  override readonly name = "RecordsApiError";
  readonly status: number;
  /** The body: v1 or v2 shape, or undefined when it was not JSON. */
  readonly body: ErrorV1 | ErrorV2 | undefined;
  readonly title: string;
  readonly detail: string;
  readonly method: string;
  readonly url: string;

  constructor(init: { status: number; body: unknown; method: string; url: string }) {
    const body = _errorBody(init.body);
    // v2 bodies carry `error` too (the same text as title): `error_detail` tells the shapes apart.
    const title = body ? ("error_detail" in body ? body.error : body.title) : `HTTP ${init.status}`;
    const detail = body ? ("error_detail" in body ? body.error_detail : body.description) : "";
    super(`${init.method} ${init.url}: ${init.status} ${title}${detail ? `: ${detail}` : ""}`);
    this.status = init.status;
    this.body = body;
    this.title = title;
    this.detail = detail;
    this.method = init.method;
    this.url = init.url;
  }

  /** True for the v2 body shape. */
  get isV2(): boolean {
    return this.body !== undefined && "title" in this.body;
  }
}

// --- internal ---

function _errorBody(value: unknown): ErrorV1 | ErrorV2 | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.error === "string" && typeof v.error_detail === "string") return { error: v.error, error_detail: v.error_detail };
  if (typeof v.title === "string" && typeof v.description === "string") return v as ErrorV2;
  return undefined;
}
