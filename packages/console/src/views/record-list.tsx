/**
 * @module views/record-list
 * A type's records: the filter builder and the raw query string (both write the URL, so a
 * view can be shared), include deleted, paging, and the page refreshed live when a record
 * of the type changes anywhere.
 */
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { filtersOf, isDateLike, MODIFIERS, rawQueryOf, SMART_DATES, withFilters, withRawQuery, type FilterRow } from "../query.js";
import { hrefOf, navigate } from "../route.js";
import { NewRecordLink } from "./record-new.js";
import { encodePart, textOf } from "../text.js";
import { Guard, couldNotShow } from "./guard.js";
import { useLoad } from "./use-load.js";

interface ListElement {
  id: string;
  display_value: string;
  state: string;
  last_updated: string;
  data: Record<string, unknown>;
}
interface ListAnswer {
  total: number;
  page: number;
  page_size: number;
  pages: number;
  results: ListElement[];
}

export function RecordList({ flock, type, params, live }: { flock: string; type: string; params: URLSearchParams; live: Live }) {
  const query = params.toString();
  const { value, error, reload } = useLoad(
    () => api<ListAnswer>(`/${encodePart(flock)}/${encodePart(type)}/${query ? `?${query}` : ""}`),
    [flock, type, query],
  );
  const [changed, setChanged] = useState<Set<string>>(new Set());
  useChanges(live, (c) => {
    if (c.resource_type !== type) return;
    setChanged((s) => new Set(s).add(c.uri.split("/")[3]!));
    reload();
  });

  const go = (p: URLSearchParams) => navigate(hrefOf([flock, type], p));
  const setControl = (name: string, v: string | null) => {
    const p = new URLSearchParams(params);
    if (v === null) p.delete(name);
    else p.set(name, v);
    if (name !== "page") p.delete("page");
    go(p);
  };
  const columns = _columns(value?.results ?? []);
  const page = value?.page ?? 1;
  return (
    <section>
      <h1>
        {type} <span class="muted">in {flock}</span>
      </h1>
      <NewRecordLink flock={flock} type={type} />
      <FilterBuilder key={query} params={params} sample={value?.results[0]?.data ?? {}} fields={columns} onApply={(rows) => go(withFilters(params, rows))} />
      <RawQuery key={`raw-${query}`} params={params} onApply={(raw) => go(withRawQuery(params, raw))} />
      <div class="row controls">
        <label class="check">
          <input
            type="checkbox"
            checked={params.get("include_deleted") === "true"}
            onChange={(e) => setControl("include_deleted", e.currentTarget.checked ? "true" : null)}
          />
          Include deleted
        </label>
        <label>
          Per page{" "}
          <select value={params.get("page_size") ?? "25"} onChange={(e) => setControl("page_size", e.currentTarget.value)}>
            {["10", "25", "50", "100"].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <span class="muted" role="status">
          {value ? `${value.total} record${value.total === 1 ? "" : "s"}` : "Loading…"}
        </span>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="scroll">
        <table>
          <caption class="sr-only">Records of {type}</caption>
          <thead>
            <tr>
              <th scope="col">Record</th>
              {columns.map((c) => (
                <th scope="col" key={c} class="opt">
                  {c}
                </th>
              ))}
              <th scope="col">State</th>
              <th scope="col" class="opt">
                Last updated
              </th>
            </tr>
          </thead>
          <tbody>
            {value?.results.map((r) => (
              <Guard
                key={r.id}
                fallback={(error) => (
                  <tr>
                    <td colSpan={columns.length + 3}>
                      <a href={hrefOf([flock, type, r.id])}>{r.id}</a> <span class="error">{couldNotShow(error)}</span>
                    </td>
                  </tr>
                )}
              >
                <Row flock={flock} type={type} record={r} columns={columns} changed={changed.has(r.id)} />
              </Guard>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="row pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => setControl("page", String(page - 1))}>
          Previous
        </button>
        <span>
          Page {page} of {Math.max(1, value?.pages ?? 1)}
        </span>
        <button type="button" disabled={!value || page >= value.pages} onClick={() => setControl("page", String(page + 1))}>
          Next
        </button>
      </nav>
    </section>
  );
}

function Row({ flock, type, record: r, columns, changed }: { flock: string; type: string; record: ListElement; columns: string[]; changed: boolean }) {
  return (
    <tr class={changed ? "flash" : undefined}>
      <td>
        <a href={hrefOf([flock, type, r.id])}>{textOf(r.display_value) || r.id}</a>
      </td>
      {columns.map((c) => (
        <td key={c} class="opt">
          {textOf(r.data[c])}
        </td>
      ))}
      <td>{textOf(r.state)}</td>
      <td class="opt">{textOf(r.last_updated)}</td>
    </tr>
  );
}

function FilterBuilder({ params, sample, fields, onApply }: { params: URLSearchParams; sample: Record<string, unknown>; fields: string[]; onApply: (rows: FilterRow[]) => void }) {
  const [rows, setRows] = useState<FilterRow[]>(() => {
    const r = filtersOf(params);
    return r.length ? r : [{ field: "", modifier: "eq", value: "" }];
  });
  const set = (i: number, patch: Partial<FilterRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <form
      class="filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(rows);
      }}
    >
      <datalist id="field-names">
        {[...fields, "created", "last_updated", "id"].map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      <datalist id="smart-dates">
        {SMART_DATES.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
      {rows.map((r, i) => (
        <fieldset class="row" key={i}>
          <legend class="sr-only">Filter {i + 1}</legend>
          <label>
            Field
            <input list="field-names" value={r.field} onInput={(e) => set(i, { field: e.currentTarget.value })} />
          </label>
          <label>
            Modifier
            <select value={r.modifier} onChange={(e) => set(i, { modifier: e.currentTarget.value })}>
              {MODIFIERS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <label>
            Value
            <input
              list={isDateLike(r.field, sample[r.field]) ? "smart-dates" : undefined}
              placeholder={isDateLike(r.field, sample[r.field]) ? "a date or a smart date" : ""}
              value={r.value}
              onInput={(e) => set(i, { value: e.currentTarget.value })}
            />
          </label>
          <button type="button" aria-label={`Remove filter ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </fieldset>
      ))}
      <div class="row">
        <button type="button" onClick={() => setRows([...rows, { field: "", modifier: "eq", value: "" }])}>
          Add filter
        </button>
        <button type="submit" class="primary">
          Apply filters
        </button>
      </div>
    </form>
  );
}

function RawQuery({ params, onApply }: { params: URLSearchParams; onApply: (raw: string) => void }) {
  const [raw, setRaw] = useState(() => rawQueryOf(params));
  return (
    <form
      class="row raw"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(raw);
      }}
    >
      <label class="grow">
        Query string
        <input value={raw} placeholder="last_name__startswithi=lo&created__gte=last month" onInput={(e) => setRaw(e.currentTarget.value)} />
      </label>
      <button type="submit">Run query</button>
    </form>
  );
}

// --- internal ---

/** Up to four data fields to show as columns: the first results' keys, in order. */
function _columns(results: readonly ListElement[]): string[] {
  const seen: string[] = [];
  for (const r of results.slice(0, 5)) for (const k of Object.keys(r.data)) if (!seen.includes(k) && _shown(r.data[k])) seen.push(k);
  return seen.slice(0, 4);
}

function _shown(v: unknown): boolean {
  return v !== null && v !== undefined && (typeof v !== "object" || (Array.isArray(v) && v.length > 0));
}
