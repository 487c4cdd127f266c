/**
 * @module views/tasks
 * Long tasks (bulk actions, recalculations): `core_event` records whose counts move as they
 * run; the feed brings each step, so the bars move without polling.
 */
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { countOf, encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

interface Task {
  id: string;
  display_value: string;
  last_updated: string;
  /** As stored: written by the service, but shown without trusting a type. */
  data: Record<string, unknown>;
}

export function Tasks({ flock, live }: { flock: string; live: Live }) {
  const { value, error, reload } = useLoad(
    () => api<{ results: Task[]; pages: number }>(`/${encodePart(flock)}/core_event/?page_size=50`),
    [flock],
  );
  useChanges(live, (c) => {
    if (c.resource_type === "core_event") reload();
  });
  const tasks = [...(value?.results ?? [])].reverse();
  return (
    <section>
      <h1>Tasks of {flock}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {value && tasks.length === 0 && <p>No tasks yet.</p>}
      <ul class="tasks">
        {tasks.map((t) => {
          const d = t.data;
          const [matched, changed, unchanged, errors, total] = ["matched", "changed", "unchanged", "errors", "total"].map((k) => countOf(d[k]));
          const done = (changed ?? 0) + (unchanged ?? 0) + (errors ?? 0);
          const tag = textOf(d.tag);
          const finished = tag === "complete" || tag === "failed";
          const name = textOf(t.display_value) || t.id;
          return (
            <li key={t.id}>
              <a href={hrefOf([flock, "core_event", t.id])}>{name}</a> <span class="muted">{tag}</span>
              <progress aria-label={`${name}: ${tag || "?"}`} max={finished ? 1 : total || undefined} value={finished ? 1 : total ? done : undefined} />
              <span class="muted">
                {matched ?? 0} matched, {changed ?? 0} changed, {unchanged ?? 0} unchanged, {errors ?? 0} errors
                {d.error ? ` — ${textOf(d.error)}` : ""}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
