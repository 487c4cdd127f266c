/**
 * @module views/record-view
 * One record: its envelope, its fields (references as links to their records, files with
 * downloads), the data events about it, the member card link of a member; editing with the
 * server's validation messages shown by the field they name; delete, restore and
 * obfuscate behind a confirmation that says what each does. Reloads live when the record
 * changes elsewhere. Any stored value shows as text (textOf, decodeOr): nothing a record
 * holds can make the page throw, and each field is guarded on its own.
 */
import { useRef, useState } from "preact/hooks";
import { api, ApiError, fieldErrors } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { session } from "../session.js";
import { decodeOr, encodePart, textOf } from "../text.js";
import { Guard, couldNotShow } from "./guard.js";
import { PersonStory } from "./person-story.js";
import { useLoad } from "./use-load.js";

interface Single {
  uri: string;
  display_value: string;
  data: Record<string, unknown>;
  meta: { created: string; last_updated: string; state: string };
}
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
  const record = useLoad(() => api<Single>(`${base}/`), [base]);
  const uri = `/${flock}/${type}/${id}/`;
  const events = useLoad(
    () => api<{ results: EventElement[] }>(`/${encodePart(flock)}/data_event/?context_ref=${encodePart(uri)}&page_size=50`),
    [uri],
  );
  const [notice, setNotice] = useState("");
  useChanges(live, (c) => {
    if (c.uri === uri) {
      record.reload();
      setNotice(`Updated at ${c.changed_at} (version ${c.version}).`);
    }
    if (c.resource_type === "data_event") events.reload();
  });
  const r = record.value;
  return (
    <section>
      <p>
        <a href={hrefOf([flock, type])}>← {type}</a>
      </p>
      <h1>{r?.display_value || id}</h1>
      {record.error && <p class="error" role="alert">{record.error}</p>}
      {notice && <p role="status" class="notice">{notice}</p>}
      {r && (
        <>
          <dl class="envelope">
            <dt>URI</dt>
            <dd>{r.uri}</dd>
            <dt>State</dt>
            <dd>{r.meta.state}</dd>
            <dt>Created</dt>
            <dd>{r.meta.created}</dd>
            <dt>Last updated</dt>
            <dd>{r.meta.last_updated}</dd>
          </dl>
          {type === "member" && <CardLink flock={flock} id={id} />}
          <Actions base={base} state={r.meta.state} onDone={record.reload} />
          <Editor key={`${r.meta.last_updated}`} base={base} record={r} onSaved={record.reload} />
        </>
      )}
      {type === "person" && <PersonStory flock={flock} id={id} live={live} />}
      <h2>Data events about it</h2>
      {events.value && events.value.results.length === 0 && <p>None.</p>}
      <ul>
        {events.value?.results.map((e) => (
          <li key={e.id}>
            <a href={hrefOf([flock, "data_event", e.id])}>{textOf(e.data.name) || textOf(e.display_value) || e.id}</a>{" "}
            <span class="muted">{textOf(e.data.fire_at)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The fields as inputs; references and files shown beside them. Sends only what changed. */
function Editor({ base, record, onSaved }: { base: string; record: Single; onSaved: () => void }) {
  const fields = Object.keys(record.data);
  const initial = Object.fromEntries(fields.map((f) => [f, _text(record.data[f])]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState("");
  const [saved, setSaved] = useState("");
  const deleted = record.meta.state === "deleted";
  const save = async (e: Event) => {
    e.preventDefault();
    setErrors({});
    setGeneral("");
    setSaved("");
    const patch: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const f of fields) {
      if (values[f] === initial[f]) continue;
      const parsed = _value(record.data[f], values[f]!);
      if (parsed.error) local[f] = parsed.error;
      else patch[f] = parsed.value;
    }
    if (Object.keys(local).length) return setErrors(local);
    if (!Object.keys(patch).length) return setSaved("Nothing changed.");
    try {
      await api(`${base}/`, { method: "PUT", json: patch });
      setSaved("Saved.");
      onSaved();
    } catch (err) {
      if (!(err instanceof ApiError)) return setGeneral(String(err));
      const byField = fieldErrors(err.detail, fields);
      setErrors(byField);
      if (!Object.keys(byField).length) setGeneral(`${err.error}: ${err.detail}`);
    }
  };
  return (
    <form class="editor" onSubmit={save} aria-label="Fields">
      <h2>Fields</h2>
      {fields.map((f) => (
        <Guard key={f} fallback={(error) => <FieldAsText name={f} value={values[f] ?? ""} error={error} />}>
          <Field
            name={f}
            stored={record.data[f]}
            value={values[f] ?? ""}
            error={errors[f]}
            disabled={deleted}
            onInput={(text) => setValues((vs) => ({ ...vs, [f]: text }))}
          />
        </Guard>
      ))}
      {general && <p class="error" role="alert">{general}</p>}
      <div class="row">
        <button type="submit" class="primary" disabled={deleted}>
          Save changes
        </button>
        <span role="status">{saved}</span>
      </div>
    </form>
  );
}

/** One field: its input, the link of a reference, the download of a file, the server's message. */
function Field(props: { name: string; stored: unknown; value: string; error: string | undefined; disabled: boolean; onInput: (text: string) => void }) {
  const { name: f, stored, value, error, disabled, onInput } = props;
  const ref = _ref(stored);
  return (
    <div class="field">
      <label for={`f-${f}`}>{f}</label>
      <input
        id={`f-${f}`}
        name={f}
        value={value}
        disabled={disabled}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `e-${f}` : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {ref && (
        <a class="ref" href={hrefOf(ref.path)}>
          {ref.label}
        </a>
      )}
      {_files(stored).map((url) => (
        <DownloadButton key={url} url={url} />
      ))}
      {error && (
        <p id={`e-${f}`} class="error field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Actions({ base, state, onDone }: { base: string; state: string; onDone: () => void }) {
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
            {error && <p class="error" role="alert">{error}</p>}
            <div class="row">
              <button type="button" class={action === "obfuscate" ? "danger" : "primary"} onClick={run}>
                {ACTIONS[action].label}
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

/** A field whose controls could not be drawn: its name and its value, as read-only text. */
function FieldAsText({ name, value, error }: { name: string; value: string; error: string }) {
  return (
    <div class="field">
      <label for={`f-${name}`}>{name}</label>
      <input id={`f-${name}`} name={name} value={value} readOnly />
      <p class="error field-error" role="alert">
        {couldNotShow(error)}
      </p>
    </div>
  );
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

/** A field's text: a reference by its URI, anything else as textOf shows it. */
function _text(v: unknown): string {
  const ref = _refUri(v);
  return ref !== undefined ? ref : textOf(v);
}

/** The value to send for edited text: strings and references stay strings (empty: null); other kinds are JSON. */
function _value(original: unknown, text: string): { value?: unknown; error?: string } {
  if (typeof original === "string" || original === null || original === undefined || _refUri(original) !== undefined) {
    return { value: text === "" ? null : text };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: "not valid JSON (this field holds a number, a boolean, a list or an object)" };
  }
}

/** The URI of an expanded reference (`{display_value, ref}` with a string `ref`), else undefined. */
function _refUri(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v) || !("ref" in v)) return undefined;
  const ref = (v as { ref: unknown }).ref;
  return typeof ref === "string" ? ref : undefined;
}

function _ref(v: unknown): { path: string[]; label: string } | undefined {
  const expanded = _refUri(v);
  const uri = expanded ?? (typeof v === "string" ? v : "");
  const m = /^\/([^/]+)\/([^/]+)\/([0-9a-f]{24})\/?$/.exec(uri);
  if (!m) return undefined;
  const shown = expanded !== undefined ? textOf((v as { display_value?: unknown }).display_value) : "";
  return { path: [m[1]!, m[2]!, m[3]!], label: shown ? `Open ${shown}` : `Open ${m[2]} ${m[3]}` };
}

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
