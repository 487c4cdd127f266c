/**
 * @module views/triggers
 * The flock's triggers (from the server's config), one row per trigger and action.
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
