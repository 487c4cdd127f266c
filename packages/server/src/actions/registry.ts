/**
 * @module actions/registry
 * Where the outbox worker looks up the handler of a job's action. One handler per action;
 * registering two for one action is a programming error and throws.
 */
import type { ActionHandler, TriggerAction } from "@records-service/core";

/** The handlers by action. */
export interface ActionRegistry {
  get(action: string): ActionHandler | undefined;
  /** The actions that have a handler. */
  readonly actions: readonly TriggerAction[];
}

/**
 * A registry of `handlers`.
 *
 * @example
 * const registry = createActionRegistry(createWebhookActions());
 * registry.get("send-json-webhook")?.run(ctx);
 */
export function createActionRegistry(handlers: readonly ActionHandler[]): ActionRegistry {
  const byAction = new Map<string, ActionHandler>();
  for (const h of handlers) {
    if (byAction.has(h.action)) throw new Error(`action registry: two handlers for ${h.action}`);
    byAction.set(h.action, h);
  }
  return {
    get: (action) => byAction.get(action),
    actions: [...byAction.keys()] as TriggerAction[],
  };
}
