/**
 * @module actions/webhook
 * `send-json-webhook` and the deprecated `send-webhook`: POST the event's JSON body to the
 * trigger's URL with the contract's signature headers, keyed with the flock's webhook key.
 * Only 200 and 201 count as delivered; any other answer, a timeout or a network error is a
 * failure for the outbox to retry, with the receiver's `Retry-After` passed back.
 * Redirects are not followed: a receiver that moved must be reconfigured, not chased with
 * signed bodies. Targets in private, loopback and link-local ranges are refused unless
 * allowed: a URL naming such an address (or `localhost`) is dead at once, as only a config
 * change can fix it; a name that resolves to one when the socket connects fails the
 * attempt and is retried on the usual schedule, since DNS answers change.
 */
import { isDeliverySuccess, webhookUrlProblem, type ActionHandler, type ActionOutcome, type ActionRunContext } from "@records-service/core";
import { webhookKey } from "../config/keys.js";
import { RestrictedTargetError } from "./guarded-lookup.js";
import { webhookHeaders } from "./signature.js";
import { createWebhookFetch } from "./webhook-fetch.js";

/** How long one delivery attempt may take before it counts as failed. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** Longest `lastError` text kept from a receiver's answer. */
const ERROR_TEXT_LIMIT = 200;

/** Options of `createWebhookActions`. */
export interface WebhookActionOptions {
  /**
   * Default: `createWebhookFetch`, which checks every address a target resolves to when it
   * connects. Tests inject a fake (which skips that check, not the URL's own).
   */
  fetch?: typeof fetch;
  /** Per attempt; default `WEBHOOK_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Accept `http://` targets (config `webhooks.allowInsecureUrls`; implies `allowPrivateTargets`). Default false. */
  allowInsecureUrls?: boolean;
  /** Accept private, loopback and link-local targets (config `webhooks.allowPrivateTargets`). Default false. */
  allowPrivateTargets?: boolean;
}

/**
 * The two webhook actions.
 *
 * @example
 * createActionRegistry([...createWebhookActions({ allowInsecureUrls: false })]);
 */
export function createWebhookActions(opts: WebhookActionOptions = {}): ActionHandler[] {
  const options = { ...opts, fetch: opts.fetch ?? createWebhookFetch({ allowPrivateTargets: _privateAllowed(opts) }) };
  const run = (ctx: ActionRunContext) => deliverWebhook(ctx, options);
  return [
    { action: "send-json-webhook", run },
    { action: "send-webhook", run },
  ];
}

/** One delivery attempt of `ctx.body` to `ctx.trigger.url`. */
export async function deliverWebhook(ctx: ActionRunContext, opts: WebhookActionOptions = {}): Promise<ActionOutcome> {
  const url = ctx.trigger.url;
  const problem = webhookUrlProblem(url, opts.allowInsecureUrls ?? false, opts.allowPrivateTargets ?? false);
  if (problem !== null || url === null) return { ok: false, error: problem ?? "no url", permanent: true };
  const send = opts.fetch ?? _sharedFetch(_privateAllowed(opts));
  const timestamp = Math.floor(ctx.now.getTime() / 1000);
  // Signed with the flock's own key, which its receivers hold: never with the secret.
  const headers = webhookHeaders(webhookKey(ctx.secret, ctx.flock.identifier), ctx.job.deliveryId, timestamp, ctx.body);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
  let res: Response;
  try {
    res = await send(url, {
      method: "POST",
      headers: { ...headers, "User-Agent": "records-service-webhook" },
      body: ctx.body,
      redirect: "manual",
      signal,
    });
  } catch (e) {
    return { ok: false, error: _networkError(e, timeout.aborted) };
  }
  const text = await _readSome(res);
  if (isDeliverySuccess(res.status)) return { ok: true, status: res.status };
  const retryAfter = res.headers.get("retry-after");
  return {
    ok: false,
    status: res.status,
    error: `HTTP ${res.status}${text ? `: ${text}` : ""}`,
    ...(retryAfter !== null ? { retryAfter } : {}),
  };
}

// --- internal ---

function _privateAllowed(opts: WebhookActionOptions): boolean {
  return (opts.allowPrivateTargets ?? false) || (opts.allowInsecureUrls ?? false);
}

/** One guarded fetch per policy for `deliverWebhook` calls without one (its agents keep sockets alive). */
const _fetches = new Map<boolean, typeof fetch>();
function _sharedFetch(allowPrivateTargets: boolean): typeof fetch {
  let f = _fetches.get(allowPrivateTargets);
  if (!f) _fetches.set(allowPrivateTargets, (f = createWebhookFetch({ allowPrivateTargets })));
  return f;
}

function _networkError(e: unknown, timedOut: boolean): string {
  if (timedOut) return "timed out";
  if (e instanceof RestrictedTargetError) return e.message;
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err.name === "AbortError") return "aborted";
  if (err.cause instanceof RestrictedTargetError) return err.cause.message;
  const cause = err.cause?.code ?? err.cause?.message ?? err.code;
  return cause && !err.message?.includes(cause) ? `${err.message ?? "fetch failed"} (${cause})` : (err.message ?? String(e));
}

/** The start of the answer's text, for the operator; the rest is not read. */
async function _readSome(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_TEXT_LIMIT * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A broken answer body does not change the status we got.
  } finally {
    void reader.cancel().catch(() => {});
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text.replace(/\s+/g, " ").trim().slice(0, ERROR_TEXT_LIMIT);
}
