/**
 * @module views/record-view
 * One record: its envelope, its fields in the record editor (typed widgets; references by
 * the name of the record they name, files with downloads), the data events about it (a
 * person's are in their story), the member card link of a member; delete, restore and obfuscate behind a confirmation that
 * says what each does. Loads again when the record changes elsewhere; the editor decides
 * what that does to an edit in progress (nothing typed is lost). Any stored value shows as
 * text (textOf, decodeOr): nothing a record holds can make the page throw, and each field
 * is guarded on its own.
 */
import { useRef, useState } from "preact/hooks";
import { api, ApiError, apiVersioned } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { session } from "../session.js";
import { displayOf } from "../format.js";
import { decodeOr, encodePart, textOf } from "../text.js";
import { titleOf } from "./fields/describe.js";
import { PersonStory } from "./person-story.js";
import { RecordEditor, type Loaded, type Single } from "./record-editor.js";
import { useLoad } from "./use-load.js";
interface EventElement {
  id: string;
  display_value: string;
  data: { name?: unknown; fire_at?: unknown; tags?: unknown };
}

const ACTIONS = {
  delete: { label: "Delete", says: "marks the record deleted: it leaves lists (unless deleted records are included) and can be restored." },
  restore: { label: "Restore", says: "brings the deleted record back into lists." },
  obfuscate: {
    label: "Obfuscate",
    says: "erases its personal data and uploaded files for good, keeping only the id, dates and state for audit. This cannot be undone.",
  },
} as const;
type Action = keyof typeof ACTIONS;

export function RecordView({ flock, type, id, live }: { flock: string; type: string; id: string; live: Live }) {
  const base = `/${encodePart(flock)}/${encodePart(type)}/${encodePart(id)}`;
  const record = useLoad<Loaded>(async () => {
    const { body, version } = await apiVersioned<Single>(`${base}/`);
    return { record: body, version };
  }, [base]);
  const uri = `/${flock}/${type}/${id}/`;
  const person = type === "person";
  useChanges(live, (c) => {
    if (c.uri === uri) record.reload();
  });
  const r = record.value?.record;
  const [pending, setPending] = useState(0);
  const [tab, setTab] = useState<"details" | "story">("details");
  return (
    <section>
      <p>
        <a href={hrefOf([flock, type])}>← {type}</a>
      </p>
      <h1>{r ? titleOf(type, r.data, r.display_value) || id : id}</h1>
      {record.error && <p class="error" role="alert">{record.error}</p>}
      {r && record.value && (
        <>
          <dl class="envelope">
            <dt>URI</dt>
            <dd>{r.uri}</dd>
            <dt>State</dt>
            <dd>{r.meta.state}</dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={textOf(r.meta.created)}>{displayOf(r.meta.created)}</time>
            </dd>
            <dt>Last updated</dt>
            <dd>
              <time dateTime={textOf(r.meta.last_updated)}>{displayOf(r.meta.last_updated)}</time>
            </dd>
          </dl>
          {type === "member" && <CardLink flock={flock} id={id} />}
          <Actions base={base} state={r.meta.state} pending={pending} onDone={record.reload} />
          {person && <Tabs tab={tab} onTab={setTab} />}
          {/* The form stays mounted while the story is shown: a tab switch keeps what was typed. */}
          <div id="tab-details" role={person ? "tabpanel" : undefined} aria-labelledby={person ? "tab-details-button" : undefined} hidden={person && tab !== "details"}>
          <RecordEditor
            key={r.meta.state === "deleted" ? "deleted" : "editable"}
            flock={flock}
            type={type}
            path={base}
            loaded={record.value}
            onSaved={record.reload}
            onPending={setPending}
            extra={(f) => _files(r.data[f]).map((url) => <DownloadButton key={url} url={url} />)}
          />
          </div>
          {person && (
            <div id="tab-story" role="tabpanel" aria-labelledby="tab-story-button" hidden={tab !== "story"}>
              <PersonStory flock={flock} id={id} name={textOf(r.display_value)} live={live} />
            </div>
          )}
        </>
      )}
      {/* A person's data events are in their story (with the rest of it): listed once. */}
      {!person && <DataEvents flock={flock} uri={uri} live={live} />}
    </section>
  );
}

/** The data events about a record (`context_ref` is its URI), each linked, with when it fires. */
function DataEvents({ flock, uri, live }: { flock: string; uri: string; live: Live }) {
  const events = useLoad(
    () => api<{ results: EventElement[] }>(`/${encodePart(flock)}/data_event/?context_ref=${encodePart(uri)}&page_size=50`),
    [uri],
  );
  useChanges(live, (c) => {
    if (c.resource_type === "data_event") events.reload();
  });
  return (
    <>
      <h2>Data events about it</h2>
      {events.error && <p class="error" role="alert">{events.error}</p>}
      {events.value && events.value.results.length === 0 && <p>None.</p>}
      <ul>
        {events.value?.results.map((e) => (
          <li key={e.id}>
            <a href={hrefOf([flock, "data_event", e.id])}>{textOf(e.data.name) || textOf(e.display_value) || e.id}</a>{" "}
            <span class="muted">{displayOf(e.data.fire_at)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** A person's page in two tabs: the fields, and their story (memberships, bookings, payments, history). */
function Tabs({ tab, onTab }: { tab: "details" | "story"; onTab: (t: "details" | "story") => void }) {
  const tabs = [
    ["details", "Details"],
    ["story", "Story"],
  ] as const;
  // Arrow keys move between the tabs, as the tabs pattern of ARIA expects.
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const next = tab === "details" ? "story" : "details";
    onTab(next);
    document.getElementById(`tab-${next}-button`)?.focus();
  };
  return (
    <div class="tabs" role="tablist" aria-label="Person" onKeyDown={onKey}>
      {tabs.map(([t, label]) => (
        <button
          key={t}
          type="button"
          role="tab"
          id={`tab-${t}-button`}
          aria-selected={tab === t}
          aria-controls={`tab-${t}`}
          tabIndex={tab === t ? 0 : -1}
          onClick={() => onTab(t)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

function Actions({ base, state, pending, onDone }: { base: string; state: string; pending: number; onDone: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [action, setAction] = useState<Action | undefined>();
  const [error, setError] = useState("");
  const ask = (a: Action) => {
    setAction(a);
    setError("");
    dialog.current?.showModal();
  };
  const run = async () => {
    if (!action) return;
    try {
      if (action === "delete") await api(`${base}/`, { method: "DELETE" });
      else await api(`${base}/${action}/`, { method: "POST" });
      dialog.current?.close();
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? `${err.error}: ${err.detail}` : String(err));
    }
  };
  return (
    <div class="row actions">
      {state === "deleted" ? (
        <button type="button" onClick={() => ask("restore")}>
          Restore
        </button>
      ) : (
        <button type="button" onClick={() => ask("delete")}>
          Delete
        </button>
      )}
      <button type="button" class="danger" onClick={() => ask("obfuscate")}>
        Obfuscate
      </button>
      <dialog ref={dialog} aria-labelledby="confirm-title">
        {action && (
          <>
            <h2 id="confirm-title">{ACTIONS[action].label} this record?</h2>
            <p>
              {ACTIONS[action].label} {ACTIONS[action].says}
            </p>
            {pending > 0 && (
              <p class="warning" role="alert">
                You have {pending === 1 ? "1 unsaved change" : `${pending} unsaved changes`}: {ACTIONS[action].label.toLowerCase()} discards {pending === 1 ? "it" : "them"}. Cancel and save first to keep {pending === 1 ? "it" : "them"}.
              </p>
            )}
            {error && <p class="error" role="alert">{error}</p>}
            <div class="row">
              <button type="button" class={action === "obfuscate" ? "danger" : "primary"} onClick={run}>
                {pending > 0 ? `${ACTIONS[action].label} and discard my edits` : ACTIONS[action].label}
              </button>
              <button type="button" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
            </div>
          </>
        )}
      </dialog>
    </div>
  );
}

function CardLink({ flock, id }: { flock: string; id: string }) {
  const card = useLoad(() => api<{ url: string }>(`/${encodePart(flock)}/member/${encodePart(id)}/card_url/`), [flock, id]);
  if (card.error) return <p class="muted">No member card: {card.error}</p>;
  return card.value ? (
    <p>
      <a href={card.value.url} target="_blank" rel="noopener">
        Member card
      </a>
    </p>
  ) : null;
}

/**
 * Files need the key, so they are fetched and handed to the browser as a download. The label
 * is the file's name decoded, or as stored when its escapes are malformed.
 */
function DownloadButton({ url }: { url: string }) {
  const name = decodeOr(url.split("/").filter(Boolean).at(-1) ?? "file");
  const download = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${session.key() ?? ""}` } });
    if (!res.ok) return;
    const href = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement("a"), { href, download: name });
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };
  return (
    <button type="button" class="link" onClick={download}>
      Download {name}
    </button>
  );
}

// --- internal ---

/**
 * The file paths of this server in a value (a path, or a URL whose origin is dropped: the
 * key goes to this server only), kept only when the browser's resolution of them stays under
 * `/files/v1/` (no `..` or `%2e%2e` out of it).
 */
function _files(v: unknown): string[] {
  const out: string[] = [];
  for (const x of Array.isArray(v) ? v : [v]) {
    if (typeof x !== "string" || !/^(https?:\/\/[^/]+)?\/files\/v1\/./.test(x)) continue;
    const path = x.replace(/^https?:\/\/[^/]+/, "");
    if (_resolvedPath(path)?.startsWith("/files/v1/")) out.push(path);
  }
  return out;
}

function _resolvedPath(path: string): string | undefined {
  try {
    const url = new URL(path, location.origin);
    return url.origin === location.origin ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}
