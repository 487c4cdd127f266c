/**
 * @module actions/defaults
 * The action handlers a server runs by default, built from its worker context (config,
 * secret). Each action module adds its handlers here.
 */
import type { ActionHandler } from "@records-service/core";
import type { WorkerContext } from "../runtime/workers.js";
import { emailActionsFor } from "./email/actions.js";
import { createWebhookActions } from "./webhook.js";

/** Options of `createDefaultActionHandlers` (tests inject a fake fetch). */
export interface DefaultActionOptions {
  fetch?: typeof fetch;
}

/**
 * Every action handler of the server: the webhook actions (with the config's
 * `webhooks.allowInsecureUrls` and `allowPrivateTargets`).
 */
export function createDefaultActionHandlers(ctx: WorkerContext, opts: DefaultActionOptions = {}): ActionHandler[] {
  return [
    ...createWebhookActions({
      allowInsecureUrls: ctx.settings.webhooks.allowInsecureUrls,
      allowPrivateTargets: ctx.settings.webhooks.allowPrivateTargets,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    }),
    // The email actions: the config's templates, SMTP when `mail` is set.
    ...emailActionsFor(ctx),
  ];
}
