/**
 * @module http
 * One request function over `fetch`: base URL, the `APPLICATION` header on every call, the
 * Bearer key, JSON in and out, errors as `RecordsApiError`, and 429s waited out and retried
 * (`Retry-After`, bounded by `maxRetries` and `maxWaitMs`).
 */
import { RecordsApiError } from "./errors.js";

/** How 429 answers are retried. */
export interface RetryOptions {
  /** Retries after a 429 before giving up with the error. Default 3; 0 never retries. */
  maxRetries?: number;
  /** Longest single wait; a longer Retry-After gives up at once. Default 60 000 ms. */
  maxWaitMs?: number;
  /** Wait used when the 429 has no Retry-After. Default 1000 ms. */
  defaultWaitMs?: number;
}

/** What the transport is built from. */
export interface TransportOptions {
  baseUrl: string;
  /** `<Organisation>/<Application>/<Version>`, sent as `APPLICATION` on every call. */
  application: string;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** How to wait (tests pass a fake). Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** One request. */
export interface RequestOptions {
  query?: URLSearchParams | Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: RequestInit["body"];
  /** The Bearer token; none: no Authorization header. */
  token?: string | undefined;
  /** Answer with the Response itself (images, HTML, event streams) instead of parsed JSON. */
  raw?: boolean;
  /** The Accept header (default JSON). */
  accept?: string;
  /** Ends the request (and a raw answer's body) when aborted. */
  signal?: AbortSignal;
}

export type Requester = <T>(method: string, path: string, opts?: RequestOptions) => Promise<T>;

/**
 * The request function.
 *
 * @example
 * const request = createRequester({ baseUrl: "http://127.0.0.1:8080", application: "Acme/Sync/1.0" });
 * await request("GET", "/api/v1/ping/") // { message: "pong" }
 */
export function createRequester(opts: TransportOptions): Requester {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxRetries = opts.retry?.maxRetries ?? 3;
  const maxWaitMs = opts.retry?.maxWaitMs ?? 60_000;
  const defaultWaitMs = opts.retry?.defaultWaitMs ?? 1000;

  return async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const url = base + path + _query(o.query);
    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = { APPLICATION: opts.application, Accept: o.accept ?? "application/json" };
      if (o.token) headers.Authorization = `Bearer ${o.token}`;
      let body = o.body;
      if (o.json !== undefined) {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(o.json);
      }
      const res = await doFetch(url, { method, headers, ...(body === undefined ? {} : { body }), ...(o.signal ? { signal: o.signal } : {}) });
      if (res.status === 429 && attempt < maxRetries) {
        const wait = _retryAfterMs(res.headers.get("retry-after"), defaultWaitMs);
        if (wait <= maxWaitMs) {
          await res.body?.cancel();
          await sleep(wait);
          continue;
        }
      }
      if (!res.ok) {
        const text = await res.text();
        throw new RecordsApiError({ status: res.status, body: _json(text), method, url });
      }
      if (o.raw) return res as T;
      const text = await res.text();
      return (text === "" ? undefined : JSON.parse(text)) as T;
    }
  };
}

// --- internal ---

function _query(q: RequestOptions["query"]): string {
  if (!q) return "";
  const params = q instanceof URLSearchParams ? q : new URLSearchParams();
  if (!(q instanceof URLSearchParams)) for (const [k, v] of Object.entries(q)) if (v !== undefined) params.append(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** `Retry-After` as seconds or an HTTP date, in ms; the default when absent or unreadable. */
function _retryAfterMs(header: string | null, fallback: number): number {
  if (!header) return fallback;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallback : Math.max(0, at - Date.now());
}

function _json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
