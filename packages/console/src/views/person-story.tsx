/**
 * @module views/person-story
 * A person's whole story on their page: the memberships (`member` is their URI), bookings
 * (tickets they bought or attend), payments (`person_ref`) and data events (`context_ref`)
 * as linked lists, each with its count and a link to the whole filtered list; and the
 * audit history as a timeline: when, who, through which application, which fields.
 */
import { api, ApiError } from "../api.js";
import { dateText, displayOf, labelOf } from "../format.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { encodePart, textOf } from "../text.js";
import { MEMBERSHIP_TYPES, membershipTitle } from "./fields/membership-titles.js";
import { useLoad } from "./use-load.js";

interface Element {
  id: string;
  display_value: string;
  data: Record<string, unknown>;
}
interface AuditEntry {
  when: string;
  action: string;
  event: string | null;
  user: string | null;
  application: string | null;
  changed_fields: string[] | null;
  version: number | null;
}

/** The related lists: the type, the filters that tie a record to the person, and what to show beside its name. */
const RELATED: { title: string; one: string; type: string; filters: (uri: string) => [string, string][]; detail: string[] }[] = [
  { title: "Memberships", one: "Membership", type: "membership", filters: (u) => [["member", u]], detail: ["start_date", "end_date", "membership_record_status"] },
  { title: "Bookings", one: "Booking", type: "ticket", filters: (u) => [["mode", "OR"], ["person_ref", u], ["buyer_ref", u]], detail: ["start_date", "status", "amount"] },
  { title: "Payments", one: "Payment", type: "payment", filters: (u) => [["person_ref", u]], detail: ["payment_date", "amount", "currency"] },
  { title: "Data events", one: "Data event", type: "data_event", filters: (u) => [["context_ref", u]], detail: ["fire_at"] },
];

export function PersonStory({ flock, id, name, live }: { flock: string; id: string; name: string; live: Live }) {
  const uri = `/${flock}/person/${id}/`;
  // Every membership here is this person's: their name titles it, no look-up needed.
  const names = new Map([[id, name]]);
  return (
    <section class="story" aria-label="Their story">
      {RELATED.map((r) => (
        <Related key={r.type} flock={flock} uri={uri} spec={r} names={names} live={live} />
      ))}
      <Timeline flock={flock} id={id} uri={uri} live={live} />
    </section>
  );
}

function Related({ flock, uri, spec, names, live }: { flock: string; uri: string; spec: (typeof RELATED)[number]; names: ReadonlyMap<string, string>; live: Live }) {
  const params = new URLSearchParams(spec.filters(uri));
  const { value, error, reload } = useLoad(async () => {
    try {
      return await api<{ total: number; results: Element[] }>(`/${encodePart(flock)}/${spec.type}/?${params}&page_size=10`);
    } catch (e) {
      // A flock that does not serve the type has none of them.
      if (e instanceof ApiError && e.status === 404) return { total: 0, results: [] };
      throw e;
    }
  }, [flock, uri]);
  useChanges(live, (c) => {
    if (c.resource_type === spec.type) reload();
  });
  const id = `story-${spec.type}`;
  return (
    <div class="related">
      <h2 id={id}>
        {spec.title} <span class="muted">({value ? value.total : "…"})</span>
      </h2>
      {error && <p class="error" role="alert">{error}</p>}
      {value && value.total === 0 && <p class="muted">None.</p>}
      <ul aria-labelledby={id}>
        {value?.results.map((r) => (
          <li key={r.id}>
            <a href={hrefOf([flock, spec.type, r.id])}>{MEMBERSHIP_TYPES.includes(spec.type) ? membershipTitle(spec.type, r.data, textOf(r.display_value), names) : _name(r, spec.one)}</a>{" "}
            <span class="muted">
              {spec.detail
                .map((f) => displayOf(r.data[f]))
                .filter(Boolean)
                .join(" · ")}
            </span>
          </li>
        ))}
      </ul>
      {value && value.total > value.results.length && <a href={hrefOf([flock, spec.type], params)}>All {value.total}</a>}
    </div>
  );
}

function Timeline({ flock, id, uri, live }: { flock: string; id: string; uri: string; live: Live }) {
  const { value, error, reload } = useLoad(
    () => api<{ results: AuditEntry[] }>(`/audit/v2/${encodePart(flock)}/person/${encodePart(id)}/audit?limit=50`, { root: true }),
    [flock, id],
  );
  useChanges(live, (c) => {
    if (c.uri === uri || c.resource_type === "data_event") reload();
  });
  return (
    <div class="timeline-wrap">
      <h2 id="story-history">History</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {value && value.results.length === 0 && <p class="muted">Nothing kept yet.</p>}
      <ol class="timeline" aria-labelledby="story-history">
        {value?.results.map((e, i) => (
          <li key={i}>
            <time dateTime={e.when}>{dateText(e.when) ?? e.when}</time>{" "}
            <strong>{e.event ? labelOf(e.event) : labelOf(e.action)}</strong>
            {e.version !== null && e.version !== undefined && <span class="muted"> (version {textOf(e.version)})</span>}
            <div class="muted">
              {e.user ? `by ${e.user}` : "by the service"}
              {e.application ? ` through ${e.application}` : ""}
              {e.changed_fields && e.changed_fields.length > 0 ? ` — ${_fields(e.changed_fields)}` : ""}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

// --- internal ---

/** A related record's name: its own `name`, its display value, or what it is ("an empty payment" says nothing). */
function _name(r: Element, one: string): string {
  const shown = textOf(r.display_value);
  return textOf(r.data.name) || (shown && !/^an? empty /.test(shown) ? shown : one);
}

/** Changed fields in words; a creation's long list is cut after eight. */
function _fields(fields: string[]): string {
  const words = fields.slice(0, 8).map(labelOf).join(", ");
  return fields.length > 8 ? `${words} and ${fields.length - 8} more` : words;
}
