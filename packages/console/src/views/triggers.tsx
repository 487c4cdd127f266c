/**
 * @module views/triggers
 * The flock's triggers (from the configuration applied to the database), one row per
 * trigger and action, and a warning when the flock records events but has no active
 * trigger (nothing is then delivered for them); the outbox view shows the same warning.
 */
import { api } from "../api.js";
import { encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

type TriggerRow = { trigger: string; action: string; active?: boolean; url?: string | null; template?: string | null; comment?: string };

export function Triggers({ flock }: { flock: string }) {
  const { value, error } = useLoad(() => api<Record<string, TriggerRow[]>>(`/${encodePart(flock)}/triggers/`), [flock]);
  const rows = Object.values(value ?? {}).flatMap((v) => (Array.isArray(v) ? v : []));
  return (
    <section>
      <h1>Triggers of {flock}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <NoActiveTriggerWarning flock={flock} />
      {value && rows.length === 0 && <p>No triggers are configured for this flock (see the config file's "triggers").</p>}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Trigger</th>
              <th scope="col">Action</th>
              <th scope="col">Active</th>
              <th scope="col">Target</th>
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t, i) => (
              <tr key={i}>
                <td>{textOf(t.trigger)}</td>
                <td>{textOf(t.action)}</td>
                <td>{t.active === false ? "no" : "yes"}</td>
                <td>{textOf(t.url ?? t.template)}</td>
                <td>{textOf(t.comment)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * "Events but no active trigger": shown when the flock has data events and none of its
 * triggers is active, so the events are recorded but nothing is queued or delivered.
 */
export function NoActiveTriggerWarning({ flock }: { flock: string }) {
  const { value } = useLoad(async () => {
    const path = `/${encodeURIComponent(flock)}`;
    const [triggers, events] = await Promise.all([
      api<Record<string, TriggerRow[]>>(`${path}/triggers/`),
      api<{ total: number }>(`${path}/data_event/?page_size=1`),
    ]);
    const active = Object.values(triggers).flat().filter((t) => t.active !== false).length;
    return { active, events: events.total };
  }, [flock]);
  if (!value || value.active > 0 || value.events === 0) return null;
  return (
    <p class="error" role="status">
      Warning: {flock} has {value.events} data event{value.events === 1 ? "" : "s"} but no active trigger: events are recorded, but no webhook or email
      is queued for them. Apply a configuration with triggers (records-service config apply FILE).
    </p>
  );
}
