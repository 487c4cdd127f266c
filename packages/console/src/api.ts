/**
 * @module api
 * Calls to the service's v1 API with the signed-in key. Errors keep the server's
 * `{error, error_detail}` so views can show its words (and by the field they name).
 */
import { session } from "./session.js";

/** A refused request: the status and the server's own texts. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail: string,
  ) {
    super(`${error}: ${detail}`);
  }
}

/**
 * The console's APPLICATION header: `<Organisation>/<Application>/<Version>`, so its
 * requests are attributed and never meet the unattributed throttle (60 a minute per key).
 */
export const CONSOLE_APPLICATION = "records-service/console/1";

/**
 * JSON of `GET|POST|PUT|DELETE /api/v1{path}` (with `root`, of `{path}` itself: the search
 * and audit gateways); 401 signs out (the key expired or was revoked).
 */
export async function api<T = Record<string, unknown>>(path: string, opts: { method?: string; json?: unknown; root?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { application: CONSOLE_APPLICATION };
  const key = session.key();
  if (key) headers.authorization = `Bearer ${key}`;
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(opts.root ? path : `/api/v1${path}`, {
    method: opts.method ?? "GET",
    headers,
    ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
  });
  const text = await res.text();
  const body = _json(text);
  if (body === undefined) {
    // Not the service's JSON (a proxy's error page, a cut answer): say so instead of a SyntaxError.
    throw new ApiError(res.status, res.ok ? "unreadable answer" : res.statusText || "request failed", `HTTP ${res.status}: the answer was not JSON`);
  }
  if (!res.ok) {
    if (res.status === 401 && key) session.signOut();
    throw new ApiError(res.status, String(body.error ?? res.statusText), String(body.error_detail ?? ""));
  }
  return body as T;
}

/**
 * The message of a validation error for each field it names: the server writes
 * `field: message; other: message`, or names fields in quotes (`'x' is generated ...`).
 *
 * @example
 * fieldErrors("date_of_birth: expected a date") // { date_of_birth: "expected a date" }
 */
export function fieldErrors(detail: string, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of detail.split("; ")) {
    const m = /^([A-Za-z0-9_]+): (.*)$/.exec(part);
    if (m && fields.includes(m[1]!)) out[m[1]!] = m[2]!;
    else for (const f of fields) if (part.includes(`'${f}'`) || part.includes(`"${f}"`)) out[f] = part;
  }
  return out;
}

// --- internal ---

function _json(text: string): Record<string, unknown> | undefined {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
