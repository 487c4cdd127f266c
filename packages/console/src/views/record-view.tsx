/**
 * @module views/record-view
 * One record: its envelope, its fields (references as links to their records, files with
 * downloads), the data events about it, the member card link of a member; editing with the
 * server's validation messages shown by the field they name; delete, restore and
 * obfuscate behind a confirmation that says what each does. Reloads live when the record
 * changes elsewhere.
 */
import { useRef, useState } from "preact/hooks";
import { api, ApiError, fieldErrors } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { hrefOf } from "../route.js";
import { session } from "../session.js";
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
  data: { name?: string; fire_at?: string; tags?: unknown };
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
  const base = `/${encodeURIComponent(flock)}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
  const record = useLoad(() => api<Single>(`${base}/`), [base]);
  const uri = `/${flock}/${type}/${id}/`;
  const events = useLoad(
    () => api<{ results: EventElement[] }>(`/${encodeURIComponent(flock)}/data_event/?context_ref=${encodeURIComponent(uri)}&page_size=50`),
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
      <h2>Data events about it</h2>
      {events.value && events.value.results.length === 0 && <p>None.</p>}
      <ul>
        {events.value?.results.map((e) => (
          <li key={e.id}>
            <a href={hrefOf([flock, "data_event", e.id])}>{e.data.name ?? e.display_value}</a> <span class="muted">{e.data.fire_at}</span>
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
      {fields.map((f) => {
        const v = record.data[f];
        const ref = _ref(v);
        const files = _files(v);
        return (
          <div class="field" key={f}>
            <label for={`f-${f}`}>{f}</label>
            <input
              id={`f-${f}`}
              name={f}
              value={values[f]}
              disabled={deleted}
              aria-invalid={errors[f] ? "true" : undefined}
              aria-describedby={errors[f] ? `e-${f}` : undefined}
              onInput={(e) => setValues({ ...values, [f]: e.currentTarget.value })}
            />
            {ref && (
              <a class="ref" href={hrefOf(ref.path)}>
                {ref.label}
              </a>
            )}
            {files.map((url) => (
              <DownloadButton key={url} url={url} />
            ))}
            {errors[f] && (
              <p id={`e-${f}`} class="error field-error" role="alert">
                {errors[f]}
              </p>
            )}
          </div>
        );
      })}
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
  const card = useLoad(() => api<{ url: string }>(`/${encodeURIComponent(flock)}/member/${encodeURIComponent(id)}/card_url/`), [flock, id]);
  if (card.error) return <p class="muted">No member card: {card.error}</p>;
  return card.value ? (
    <p>
      <a href={card.value.url} target="_blank" rel="noopener">
        Member card
      </a>
    </p>
  ) : null;
}

/** Files need the key, so they are fetched and handed to the browser as a download. */
function DownloadButton({ url }: { url: string }) {
  const name = decodeURIComponent(url.split("/").filter(Boolean).at(-1) ?? "file");
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

function _text(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object" && v !== null && "ref" in v) return String((v as { ref: unknown }).ref);
  return JSON.stringify(v);
}

/** The value to send for edited text: strings stay strings (empty: null); other kinds are JSON. */
function _value(original: unknown, text: string): { value?: unknown; error?: string } {
  if (typeof original === "string" || original === null || original === undefined || (typeof original === "object" && "ref" in original)) {
    return { value: text === "" ? null : text };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: "not valid JSON (this field holds a number, a boolean, a list or an object)" };
  }
}

function _ref(v: unknown): { path: string[]; label: string } | undefined {
  const obj = typeof v === "object" && v !== null && "ref" in v ? (v as { ref: unknown; display_value?: unknown }) : undefined;
  const uri = obj ? String(obj.ref) : typeof v === "string" ? v : "";
  const m = /^\/([^/]+)\/([^/]+)\/([0-9a-f]{24})\/?$/.exec(uri);
  if (!m) return undefined;
  return { path: [m[1]!, m[2]!, m[3]!], label: obj?.display_value ? `Open ${String(obj.display_value)}` : `Open ${m[2]} ${m[3]}` };
}

function _files(v: unknown): string[] {
  const all = Array.isArray(v) ? v : [v];
  return all.filter((x): x is string => typeof x === "string" && /^(https?:\/\/[^/]+)?\/files\/v1\//.test(x)).map((x) => x.replace(/^https?:\/\/[^/]+/, ""));
}
