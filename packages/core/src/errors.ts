/**
 * @module errors
 * One error type for every rule the engine enforces. The server maps `code` to an HTTP
 * status in a single place; nothing else decides statuses.
 */

/** Stable error codes. Each maps to exactly one HTTP status (see `statusOf`). */
export type RecordsErrorCode =
  | "bad_request" // 400: malformed input, bad filter, wrong field type
  | "unauthorized" // 401: missing or invalid credentials
  | "forbidden" // 403: valid credentials without access
  | "not_found" // 404: unknown flock, resource type or record
  | "method_not_allowed" // 405: the path does not accept the method
  | "conflict" // 409: a state change that does not apply, or a concurrent write
  | "gone" // 410: asked for something no longer kept (a change feed position past the retention)
  | "payload_too_large" // 413
  | "rate_limited" // 429
  | "not_implemented" // 501: an operation known from the hosted service and deliberately not offered
  | "unavailable"; // 503: the database cannot be reached (a PostgreSQL outage); retry later

const STATUS: Record<RecordsErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  rate_limited: 429,
  not_implemented: 501,
  unavailable: 503,
};

/** A link the v2 error body may carry (contract: "a `link` may be added"). */
export interface ErrorLink {
  href: string;
  rel: string;
  text: string;
}

/**
 * The error every core operation throws for a rule it enforces.
 * `message` is the short `error` text; `detail` names the bad thing and what is accepted.
 *
 * @example
 * throw new RecordsError("bad_request", "unknown modifier", "first_name__foo: modifier 'foo' is not one of eq, ne, ...");
 */
export class RecordsError extends Error {
  override readonly name = "RecordsError";
  constructor(
    readonly code: RecordsErrorCode,
    message: string,
    readonly detail: string = message,
    extra: { headers?: Readonly<Record<string, string>>; link?: ErrorLink } = {},
  ) {
    super(message);
    this.headers = extra.headers ?? {};
    if (extra.link) this.link = extra.link;
  }

  /** Headers of the answer: `Retry-After` of a 429, `Allow` of a 405. */
  readonly headers: Readonly<Record<string, string>>;
  /** A help link for the v2 body (the signed card's 401 points to how signed links work). */
  readonly link?: ErrorLink;

  /** The HTTP status this error maps to. */
  get status(): number {
    return STATUS[this.code];
  }
}

/** True for errors the engine raised on purpose (as opposed to bugs). */
export function isRecordsError(e: unknown): e is RecordsError {
  return e instanceof RecordsError;
}

/** Shorthand constructors, so call sites read as the rule they enforce. */
export const badRequest = (message: string, detail?: string) => new RecordsError("bad_request", message, detail);
export const notFound = (message: string, detail?: string) => new RecordsError("not_found", message, detail);
export const conflict = (message: string, detail?: string) => new RecordsError("conflict", message, detail);
