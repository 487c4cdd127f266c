/**
 * @module views/record-list
 * A type's records: the search box (persons and organisations), the filter builder and the
 * raw query string (all write the URL, so a view can be shared), oldest or newest first,
 * include deleted, paging; the columns a person chose (kept per type, whatever the rows
 * hold), each sorting the whole list (the API's `sort`, in the URL); rows selected for a bulk action; the filtered list exported
 * as CSV or XLSX; and the page refreshed live when a record of the type changes anywhere.
 */
import { PERSON_FIELDS } from "@records-service/core";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { displayOf, labelOf } from "../format.js";
import { useChanges, type Live } from "../live.js";
import { chooseColumns, chosenColumns } from "../prefs.js";
import { apiParams, filtersOf, isDateLike, MODIFIERS, rawQueryOf, SMART_DATES, sortOf, withFilters, withRawQuery, type FilterRow } from "../query.js";
import { hrefOf, navigate } from "../route.js";
import { NewRecordLink } from "./record-new.js";
import { encodePart, textOf } from "../text.js";
import { idOfUri, membershipTitle, useMemberNames } from "./fields/membership-titles.js";
import { Guard, couldNotShow } from "./guard.js";
import { BulkBar } from "./list-bulk.js";
import { ExportButtons } from "./list-export.js";
import { SEARCHABLE, SearchBox, SearchResults } from "./list-search.js";
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
/** The sort that newest first is. */
const NEWEST = "-created";

/** The person list's columns until some are chosen. */
const PERSON_COLUMNS = ["first_name", "last_name", "email", "tags"];

export function RecordList(props: { flock: string; type: string; params: URLSearchParams; live: Live }) {
  // Keyed by type: the columns and the selection belong to one list.
  return <List key={`${props.flock}/${props.type}`} {...props} />;
}

function List({ flock, type, params, live }: { flock: string; type: string; params: URLSearchParams; live: Live }) {
  const query = params.toString();
  const q = params.get("q") ?? "";
  const { value, error, reload } = useLoad(() => _load(flock, type, params), [flock, type, query]);
  const [changed, setChanged] = useState<Set<string>>(new Set());
  const [columns, setColumns] = useState<string[]>(() => chosenColumns(flock, type) ?? (type === "person" ? PERSON_COLUMNS : []));
  const sort = sortOf(params);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const names = useMemberNames(flock, type, value?.results);
  useChanges(live, (c) => {
    if (c.resource_type !== type) return;
    setChanged((s) => new Set(s).add(c.uri.split("/")[3]!));
    reload();
  });
  // A type without a schema: its first records' fields, once, then kept as if chosen.
  useEffect(() => {
    if (columns.length === 0 && value && value.results.length > 0 && !chosenColumns(flock, type)) {
      const first = _columns(value.results);
      setColumns(first);
      chooseColumns(flock, type, first);
    }
  }, [value]);

  const go = (p: URLSearchParams) => navigate(hrefOf([flock, type], p));
  const setControl = (name: string, v: string | null) => {
    const p = new URLSearchParams(params);
    if (v === null || v === "") p.delete(name);
    else p.set(name, v);
    if (name !== "page") p.delete("page");
    if (name === "sort") p.delete("order"); // the old spelling of newest first
    go(p);
  };
  const choose = (next: string[]) => {
    setColumns(next);
    chooseColumns(flock, type, next);
  };
  const candidates = type === "person" ? Object.keys(PERSON_FIELDS) : _union(columns, (value?.results ?? []).flatMap((r) => Object.keys(r.data)));
  const rows = value?.results ?? [];
  const onSort = (next: string | undefined) => setControl("sort", next ?? null);
  const page = value?.page ?? 1;
  const pageIds = rows.map((r) => r.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  return (
    <section>
      <h1>
        {labelOf(type)} <span class="muted">in {flock}</span>
      </h1>
      <NewRecordLink flock={flock} type={type} />
      {SEARCHABLE.includes(type) && <SearchBox key={`q-${q}`} value={q} onSearch={(text) => setControl("q", text)} />}
      {q ? (
        <SearchResults flock={flock} type={type} q={q} />
      ) : (
        <>
          <FilterBuilder key={query} params={params} sample={value?.results[0]?.data ?? {}} fields={candidates} onApply={(rows) => go(withFilters(params, rows))} />
          <RawQuery key={`raw-${query}`} params={params} onApply={(raw) => go(withRawQuery(params, raw))} />
          <div class="row controls">
            <label>
              Order
              <select value={sort ?? ""} onChange={(e) => setControl("sort", e.currentTarget.value || null)}>
                <option value="">Oldest first</option>
                <option value={NEWEST}>Newest first</option>
                {sort && sort !== NEWEST && <option value={sort}>{_orderLabel(sort)}</option>}
              </select>
            </label>
            <label>
              Per page{" "}
              <select value={params.get("page_size") ?? "25"} onChange={(e) => setControl("page_size", e.currentTarget.value)}>
                {_union(["10", "25", "50", "100"], [params.get("page_size") ?? "25"]).map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={params.get("include_deleted") === "true"}
                onChange={(e) => setControl("include_deleted", e.currentTarget.checked ? "true" : null)}
              />
              Include deleted
            </label>
            <ColumnChooser candidates={candidates} columns={columns} onChoose={choose} />
            <ExportButtons flock={flock} type={type} params={params} columns={columns} />
            <span class="muted" role="status">
              {value ? `${value.total} record${value.total === 1 ? "" : "s"}` : "Loading…"}
            </span>
          </div>
          {selected.size > 0 && <BulkBar flock={flock} type={type} ids={[...selected]} live={live} onClear={() => setSelected(new Set())} />}
          {error && <p class="error" role="alert">{error}</p>}
          <div class="scroll" tabIndex={0} role="region" aria-label="Records">
            <table>
              <caption class="sr-only">Records of {type}</caption>
              <thead>
                <tr>
                  <th scope="col" class="pick">
                    <input type="checkbox" aria-label="Select every record on this page" checked={allOnPage} onChange={(e) => toggle(pageIds, e.currentTarget.checked)} />
                  </th>
                  {/* A person's name sorts by its sortable form (surname first); other titles are not fields. */}
                  {type === "person" ? <SortHeader field="sortable_name" label="Record" sort={sort} onSort={onSort} /> : <th scope="col">Record</th>}
                  {columns.map((c) => (
                    <SortHeader key={c} field={c} label={labelOf(c)} sort={sort} onSort={onSort} optional />
                  ))}
                  <th scope="col">State</th>
                  <SortHeader field="last_updated" label="Last updated" sort={sort} onSort={onSort} optional />
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <Guard
                    key={r.id}
                    fallback={(error) => (
                      <tr>
                        <td colSpan={columns.length + 4}>
                          <a href={hrefOf([flock, type, r.id])}>{r.id}</a> <span class="error">{couldNotShow(error)}</span>
                        </td>
                      </tr>
                    )}
                  >
                    <Row flock={flock} type={type} record={r} columns={columns} names={names} changed={changed.has(r.id)} selected={selected.has(r.id)} onSelect={(on) => toggle([r.id], on)} />
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
        </>
      )}
    </section>
  );
}

/** A column header that sorts the whole list by `field`: ascending, then descending, then off. */
function SortHeader({ field, label, sort, onSort, optional }: { field: string; label: string; sort: string | undefined; onSort: (s: string | undefined) => void; optional?: boolean }) {
  const dir = sort === field ? 1 : sort === `-${field}` ? -1 : 0;
  return (
    <th scope="col" class={optional ? "opt" : undefined} aria-sort={dir === 1 ? "ascending" : dir === -1 ? "descending" : undefined}>
      <button type="button" class="sort" onClick={() => onSort(dir === 1 ? `-${field}` : dir === -1 ? undefined : field)}>
        {label}
        <span aria-hidden="true">{dir === 1 ? " ▲" : dir === -1 ? " ▼" : ""}</span>
      </button>
    </th>
  );
}

function ColumnChooser({ candidates, columns, onChoose }: { candidates: string[]; columns: string[]; onChoose: (c: string[]) => void }) {
  return (
    <details class="columns">
      <summary>Columns ({columns.length})</summary>
      <fieldset>
        <legend class="sr-only">Columns shown</legend>
        {candidates.map((c) => (
          <label class="check" key={c}>
            <input
              type="checkbox"
              checked={columns.includes(c)}
              onChange={(e) => onChoose(e.currentTarget.checked ? [...columns, c] : columns.filter((x) => x !== c))}
            />
            {labelOf(c)}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

function Row(props: { flock: string; type: string; record: ListElement; columns: string[]; names: ReadonlyMap<string, string>; changed: boolean; selected: boolean; onSelect: (on: boolean) => void }) {
  const { flock, type, record: r, columns, names } = props;
  const name = membershipTitle(type, r.data, textOf(r.display_value), names) || r.id;
  return (
    <tr class={props.changed ? "flash" : undefined}>
      <td class="pick">
        <input type="checkbox" aria-label={`Select ${name}`} checked={props.selected} onChange={(e) => props.onSelect(e.currentTarget.checked)} />
      </td>
      <td>
        <a href={hrefOf([flock, type, r.id])}>{name}</a>
      </td>
      {columns.map((c) => (
        <td key={c} class="opt">
          {c === "member" && typeof r.data[c] === "string" ? (names.get(idOfUri(r.data[c] as string) ?? "") ?? displayOf(r.data[c])) : displayOf(r.data[c])}
        </td>
      ))}
      <td>{textOf(r.state)}</td>
      <td class="opt">
        <time dateTime={textOf(r.last_updated)}>{displayOf(r.last_updated)}</time>
      </td>
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

/** A page of the list, in the order asked for: one request, whatever the order. */
async function _load(flock: string, type: string, params: URLSearchParams): Promise<ListAnswer> {
  const q = apiParams(params);
  return api<ListAnswer>(`/${encodePart(flock)}/${encodePart(type)}/${q.size ? `?${q}` : ""}`);
}

/** The order menu's words for a column sort: "By last name, A to Z". */
function _orderLabel(sort: string): string {
  const down = sort.startsWith("-");
  const field = down ? sort.slice(1) : sort;
  return `By ${(field === "sortable_name" ? "name" : labelOf(field)).toLowerCase()}, ${down ? "Z to A" : "A to Z"}`;
}

function _union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}


/** Up to four data fields to show as columns: the first results' keys, in order. */
function _columns(results: readonly ListElement[]): string[] {
  const seen: string[] = [];
  for (const r of results.slice(0, 5)) for (const k of Object.keys(r.data)) if (!seen.includes(k) && _shown(r.data[k])) seen.push(k);
  return seen.slice(0, 4);
}

function _shown(v: unknown): boolean {
  return v !== null && v !== undefined && (typeof v !== "object" || (Array.isArray(v) && v.length > 0));
}
