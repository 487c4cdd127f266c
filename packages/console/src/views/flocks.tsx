/**
 * @module views/flocks
 * The flocks the key may open (one flock opens at once, no chooser), and a flock's resource
 * types: every type it serves with its count, empty ones at 0 (live), each with a link to
 * create a record, so a first run on an empty flock leads somewhere.
 */
import { useEffect } from "preact/hooks";
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { encodePart, textOf } from "../text.js";
import { SERVICE_WRITTEN } from "./record-new.js";
import { useLoad } from "./use-load.js";

export function FlockPicker() {
  const { value, error } = useLoad(() => api<{ flocks: { identifier: string; name: string }[] }>("/"), []);
  const only = value?.flocks.length === 1 ? value.flocks[0]!.identifier : undefined;
  // One flock: nothing to choose on arrival (an address without a hash, as after signing
  // in); replace it so Back does not return here. `#/` asked for (the brand link) still shows
  // the chooser, and a link followed meanwhile wins.
  useEffect(() => {
    if (only !== undefined && (location.hash === "" || location.hash === "#")) location.replace(hrefOf([only]));
  }, [only]);
  return (
    <section>
      <h1>Choose a flock</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {value && value.flocks.length === 0 && <p>Your account has no flock yet: ask an administrator for access.</p>}
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
    () => api<{ resource_type: { name: string; count: number; last_modified: string | null }[] }>(`/${encodePart(flock)}/?include_empty=true`),
    [flock],
  );
  useChanges(live, reload);
  const types = value?.resource_type ?? [];
  // The service's own records (data events of the flock's set-up) do not make a flock started.
  const empty = value !== undefined && types.every((t) => !t.count || SERVICE_WRITTEN.includes(t.name));
  return (
    <section>
      <h1>Resource types in {flock}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {empty && (
        <div class="first-run">
          <p>
            <strong>This flock has no records yet.</strong> Start with a person, or fill it with sample people, memberships, bookings and payments:{" "}
            <code>npx records-service seed --flock {flock}</code>
          </p>
          <p>
            <a class="button primary" href={hrefOf([flock, "person", "_new"])}>
              New person
            </a>
          </p>
        </div>
      )}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col" class="num">
                Records
              </th>
              <th scope="col" class="opt">
                Last change
              </th>
              <th scope="col">
                <span class="sr-only">New record</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr key={t.name} class={t.count ? "" : "zero"}>
                <td>
                  <a href={hrefOf([flock, t.name])}>{t.name}</a>
                </td>
                <td class="num">{textOf(t.count)}</td>
                <td class="opt">{_when(t.last_modified)}</td>
                <td>
                  {!SERVICE_WRITTEN.includes(t.name) && (
                    <a href={hrefOf([flock, t.name, "_new"])} aria-label={`New ${t.name.replace(/_/g, " ")}`}>
                      New
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// --- internal ---

/** A stored timestamp to the minute ("2026-11-28 09:33"); anything else as its text. */
function _when(ts: unknown): string {
  return typeof ts === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(ts) ? ts.slice(0, 16).replace("T", " ") : textOf(ts);
}
