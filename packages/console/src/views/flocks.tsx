/**
 * @module views/flocks
 * The flocks the key may open, and a flock's resource types with their counts (live).
 */
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

export function FlockPicker() {
  const { value, error } = useLoad(() => api<{ flocks: { identifier: string; name: string }[] }>("/"), []);
  return (
    <section>
      <h1>Choose a flock</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <ul class="cards">
        {value?.flocks.map((f) => (
          <li key={f.identifier}>
            <a href={hrefOf([f.identifier])}>
              <strong>{textOf(f.name)}</strong> <span class="muted">{f.identifier}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FlockHome({ flock, live }: { flock: string; live: Live }) {
  const { value, error, reload } = useLoad(
    () => api<{ resource_type: { name: string; count: number; last_modified: string }[] }>(`/${encodePart(flock)}/`),
    [flock],
  );
  useChanges(live, reload);
  return (
    <section>
      <h1>Resource types in {flock}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col" class="num">Records</th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {value?.resource_type.map((t) => (
              <tr key={t.name}>
                <td>
                  <a href={hrefOf([flock, t.name])}>{t.name}</a>
                </td>
                <td class="num">{textOf(t.count)}</td>
                <td>{textOf(t.last_modified)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {value && value.resource_type.length === 0 && <p>No records yet.</p>}
    </section>
  );
}
