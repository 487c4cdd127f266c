/**
 * @module views/tasks
 * Long tasks (bulk actions, recalculations): `core_event` records whose counts move as they
 * run; the feed brings each step, so the bars move without polling.
 */
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { useLoad } from "./use-load.js";

interface Task {
  id: string;
  display_value: string;
  last_updated: string;
  data: { task?: string; tag?: string; matched?: number; changed?: number; unchanged?: number; errors?: number; error?: string | null; total?: number };
}

export function Tasks({ flock, live }: { flock: string; live: Live }) {
  const { value, error, reload } = useLoad(
    () => api<{ results: Task[]; pages: number }>(`/${encodeURIComponent(flock)}/core_event/?page_size=50`),
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
          const done = (d.changed ?? 0) + (d.unchanged ?? 0) + (d.errors ?? 0);
          const finished = d.tag === "complete" || d.tag === "failed";
          const label = `${t.display_value}: ${d.tag ?? "?"}`;
          return (
            <li key={t.id}>
              <a href={hrefOf([flock, "core_event", t.id])}>{t.display_value}</a> <span class="muted">{d.tag}</span>
              <progress
                aria-label={label}
                max={finished ? 1 : d.total ?? undefined}
                value={finished ? 1 : d.total ? done : undefined}
              />
              <span class="muted">
                {d.matched ?? 0} matched, {d.changed ?? 0} changed, {d.unchanged ?? 0} unchanged, {d.errors ?? 0} errors
                {d.error ? ` — ${d.error}` : ""}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
