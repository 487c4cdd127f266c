/**
 * @module views/list-search
 * The search box of the person and organisation lists (name, email) on the service's
 * search index (`/search/v2/{flock}?q=`, closest first), and its results. The text is in
 * the URL (`q=`), so a search can be shared; "/" anywhere focuses the box (shortcuts.ts).
 */
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { hrefOf } from "../route.js";
import { encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

/** The types the search index holds. */
export const SEARCHABLE = ["person", "organisation"];

/** The id of the search box, for the "/" shortcut. */
export const SEARCH_BOX_ID = "search";

interface Hit {
  display_value: string;
  uri: string;
  resource: string;
  primary_email: string | null;
  primary_telephone: string | null;
}

export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(value);
  return (
    <form
      class="row search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(q.trim());
      }}
    >
      <label class="grow">
        Search by name or email <span class="muted">(press /)</span>
        <input id={SEARCH_BOX_ID} type="search" value={q} placeholder="Ada, lovelace@…" onInput={(e) => setQ(e.currentTarget.value)} />
      </label>
      <button type="submit">Search</button>
      {value && (
        <button type="button" onClick={() => onSearch("")}>
          Clear search
        </button>
      )}
    </form>
  );
}

export function SearchResults({ flock, type, q }: { flock: string; type: string; q: string }) {
  const { value, error } = useLoad(
    () => api<{ results: Hit[] }>(`/search/v2/${encodePart(flock)}?q=${encodePart(q)}&limit=100`, { root: true }),
    [flock, q],
  );
  const hits = (value?.results ?? []).filter((h) => h.resource === type);
  return (
    <>
      <p class="muted" role="status">
        {value ? `${hits.length} match${hits.length === 1 ? "" : "es"} for “${q}”` : "Searching…"}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="scroll" tabIndex={0} role="region" aria-label="Search results">
        <table>
          <caption class="sr-only">Search results</caption>
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Email</th>
              <th scope="col" class="opt">
                Telephone
              </th>
            </tr>
          </thead>
          <tbody>
            {hits.map((h) => {
              const id = h.uri.split("/")[3] ?? "";
              return (
                <tr key={h.uri}>
                  <td>
                    <a href={hrefOf([flock, type, id])}>{textOf(h.display_value) || id}</a>
                  </td>
                  <td>{textOf(h.primary_email)}</td>
                  <td class="opt">{textOf(h.primary_telephone)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
