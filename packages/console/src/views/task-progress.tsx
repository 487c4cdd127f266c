/**
 * @module views/task-progress
 * One task's progress (a bulk action queued from a list): its counts and a bar that move as
 * the worker writes them, brought by the change feed, until it is complete or failed.
 */
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { countOf, encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

export function TaskProgress({ flock, id, live }: { flock: string; id: string; live: Live }) {
  const { value, error, reload } = useLoad(() => api<{ data: Record<string, unknown> }>(`/${encodePart(flock)}/core_event/${encodePart(id)}/`), [flock, id]);
  useChanges(live, (c) => {
    if (c.resource_type === "core_event" && c.uri.split("/")[3] === id) reload();
  });
  const d = value?.data ?? {};
  const [matched, changed, unchanged, errors, total] = ["matched", "changed", "unchanged", "errors", "total"].map((k) => countOf(d[k]));
  const done = (changed ?? 0) + (unchanged ?? 0) + (errors ?? 0);
  const tag = textOf(d.tag) || "queued";
  const finished = tag === "complete" || tag === "failed";
  return (
    <div class="task-progress">
      {error && <p class="error" role="alert">{error}</p>}
      <progress aria-label={`Bulk action: ${tag}`} max={finished ? 1 : total || undefined} value={finished ? 1 : total ? done : undefined} />
      <span role="status">
        {tag}: {matched ?? 0} matched, {changed ?? 0} changed, {unchanged ?? 0} unchanged, {errors ?? 0} errors
        {d.error ? ` — ${textOf(d.error)}` : ""}
      </span>{" "}
      <a href={hrefOf([flock, "_tasks"])}>All tasks</a>
    </div>
  );
}
