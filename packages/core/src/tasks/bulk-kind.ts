/**
 * @module tasks/bulk-kind
 * The `bulk_action` task kind: the spec's bulk actions (add_tag, remove_tag,
 * set-single-field, set-single-field-on-last-membership) over every match of a query.
 */
import { prepareBulkParams } from "./bulk-params.js";
import { bulkStep } from "./bulk-step.js";
import type { TaskKind } from "./types.js";

/**
 * `bulk_action`: params are the spec's body (see `BulkActionBodySchema`).
 *
 * @example
 * await createTask(engine, "demo", "bulk_action", { action: "add_tag", query: { tags: "gala" }, value: "thanked" });
 */
export const bulkActionTask: TaskKind = {
  name: "bulk_action",
  async prepare(ctx, flock, raw) {
    return { ...(await prepareBulkParams(ctx, flock, raw)) };
  },
  step: bulkStep,
};
