/**
 * @module views/record-editor
 * A record's fields, edited safely. The edit starts from one version of the record (its
 * ETag). When the record changes elsewhere, nothing typed is overwritten: with no edit
 * pending the page takes the new values and says so; with edits pending it shows "Changed
 * elsewhere" with the other values, and the user reloads (dropping their edits) or keeps
 * theirs. Saving sends only what changed, with If-Match: the version the edit started
 * from, so a save over someone else's change is refused (409) and says so. The result of a
 * save sits next to the button (a bar that stays on screen); after a refusal focus moves to
 * the first invalid field, each message beside its field. Ctrl/Cmd+S saves.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { apiVersioned, ApiError, fieldErrors } from "../api.js";
import { textOf } from "../text.js";
import { kindOf, labelOf, referenceTarget, type FieldKind } from "./fields/describe.js";
import { focusFirstInvalid } from "./fields/focus.js";
import { RecordForm } from "./fields/record-form.js";
import { useSaveShortcut } from "./fields/use-save-shortcut.js";
import { editOf, sameEdit, valueOf, type Edit } from "./fields/value.js";
import { Fragment, type ComponentChildren } from "preact";

/** The single-record shape, as the editor reads it. */
export interface Single {
  uri: string;
  display_value: string;
  data: Record<string, unknown>;
  meta: { created: string; last_updated: string; state: string };
}

/** One loaded version of a record: the envelope and its ETag. */
export interface Loaded {
  record: Single;
  version: string | undefined;
}

export function RecordEditor(props: { flock: string; type: string; path: string; loaded: Loaded; onSaved: () => void; onPending?: (count: number) => void; extra?: (field: string) => ComponentChildren }) {
  const { flock, type, path, loaded, onSaved, onPending, extra } = props;
  const form = useRef<HTMLFormElement>(null);
  const [base, setBase] = useState(loaded);
  const fields = useMemo(() => Object.keys(base.record.data), [base]);
  const kinds = useMemo(() => _kinds(type, base.record.data), [type, base]);
  const targets = useMemo(() => Object.fromEntries(fields.map((f) => [f, referenceTarget(type, f, base.record.data[f])])), [type, fields, base]);
  const initial = useMemo(() => _edits(kinds, base.record.data), [kinds, base]);
  const [values, setValues] = useState<Record<string, Edit>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const [showAll, setShowAll] = useState(false);
  const [incoming, setIncoming] = useState<Loaded | undefined>();
  const [dismissed, setDismissed] = useState(false);
  const [updated, setUpdated] = useState("");
  const [saving, setSaving] = useState(false);
  const ownSave = useRef(false);
  const deleted = base.record.meta.state === "deleted";
  const pending = fields.filter((f) => !sameEdit(values[f] ?? null, initial[f] ?? null));

  const adopt = (next: Loaded) => {
    const k = _kinds(type, next.record.data);
    setBase(next);
    setValues(_edits(k, next.record.data));
    setIncoming(undefined);
    setDismissed(false);
  };

  // A newer version arrived (live change or our own save): take it unless edits are pending.
  useEffect(() => {
    if (loaded.version === base.version && loaded.record === base.record) return;
    if (loaded.version !== undefined && loaded.version === base.version) return;
    const changed = _changedFields(base.record.data, loaded.record.data);
    if (ownSave.current || pending.length === 0) {
      if (!ownSave.current && changed.length) setUpdated(`Updated elsewhere: ${changed.map(labelOf).join(", ")}. The page shows the new values.`);
      ownSave.current = false;
      adopt(loaded);
      return;
    }
    setIncoming(loaded);
    setDismissed(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  useEffect(() => focusFirstInvalid(form.current, fields, errors), [errors]);
  // The page asks before an action (delete, restore) that would drop these edits.
  useEffect(() => onPending?.(pending.length), [pending.length]);
  useSaveShortcut(form, !deleted);

  const save = async (e: Event) => {
    e.preventDefault();
    if (saving) return;
    setErrors({});
    setResult(undefined);
    setUpdated("");
    const patch: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const f of pending) {
      const v = valueOf(kinds[f] ?? "text", values[f] ?? null, base.record.data[f]);
      if (v.error) local[f] = v.error;
      else patch[f] = v.value;
    }
    if (Object.keys(local).length) {
      setErrors(local);
      return setResult({ ok: false, text: `Not saved: ${_count(Object.keys(local).length)} to correct.` });
    }
    if (!Object.keys(patch).length) return setResult({ ok: true, text: "Nothing changed." });
    setSaving(true);
    try {
      await apiVersioned(`${path}/`, { method: "PUT", json: patch, ...(base.version ? { ifMatch: base.version } : {}) });
      ownSave.current = true;
      setResult({ ok: true, text: `Saved at ${new Date().toLocaleTimeString()}.` });
      onSaved();
    } catch (err) {
      if (!(err instanceof ApiError)) return setResult({ ok: false, text: String(err) });
      if (err.status === 409 && err.error === "version conflict") {
        setDismissed(false);
        if (!incoming) onSaved(); // fetch the other version to show it
        return setResult({ ok: false, text: "Not saved: this record was changed elsewhere since you opened it. Reload to see the other values, then make your change again." });
      }
      const byField = fieldErrors(err.detail, fields);
      setErrors(byField);
      setResult({ ok: false, text: Object.keys(byField).length ? `Not saved: ${_count(Object.keys(byField).length)} to correct. ${err.error}.` : `Not saved: ${err.error}: ${err.detail}` });
    } finally {
      setSaving(false);
    }
  };

  const elsewhere = incoming ? _changedFields(base.record.data, incoming.record.data) : [];
  return (
    <form ref={form} class="editor" onSubmit={save} aria-label="Fields">
      <h2>Fields</h2>
      {updated && (
        <p role="status" class="notice">
          {updated}
        </p>
      )}
      {incoming && !dismissed && (
        <div class="elsewhere" role="alert">
          <p>
            <strong>Changed elsewhere.</strong> Someone else saved this record while you were editing it. Your edits are kept until you choose.
          </p>
          {elsewhere.length > 0 && (
            <dl>
              {elsewhere.map((f) => (
                <Fragment key={f}>
                  <dt>{labelOf(f)}</dt>
                  <dd>
                    now <q>{_shown(incoming.record.data[f])}</q>
                    {pending.includes(f) && (
                      <>
                        {" "}
                        (yours: <q>{_shown(valueOf(kinds[f] ?? "text", values[f] ?? null, base.record.data[f]).value)}</q>)
                      </>
                    )}
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
          <div class="row">
            <button type="button" class="primary" onClick={() => (adopt(incoming), setResult(undefined), setErrors({}))}>
              Reload (discard my edits)
            </button>
            <button type="button" onClick={() => setDismissed(true)}>
              Keep mine
            </button>
          </div>
        </div>
      )}
      <RecordForm
        flock={flock}
        type={type}
        fields={fields}
        kinds={kinds}
        targets={targets}
        values={values}
        initial={initial}
        errors={errors}
        disabled={deleted}
        showAll={showAll}
        primary={type === "person" ? [] : fields}
        {...(extra ? { extra } : {})}
        onChange={(f, v) => setValues((vs) => ({ ...vs, [f]: v }))}
        onShowAll={setShowAll}
      />
      <div class="row savebar">
        <button type="submit" class="primary" disabled={deleted || saving} aria-keyshortcuts="Control+S Meta+S">
          Save changes
        </button>
        <span role="status" class={result ? (result.ok ? "notice" : "error") : ""}>
          {result?.text ?? (pending.length ? `${_count(pending.length, "unsaved change")} (Ctrl+S saves)` : "")}
        </span>
      </div>
    </form>
  );
}

// --- internal ---

function _kinds(type: string, data: Record<string, unknown>): Record<string, FieldKind> {
  return Object.fromEntries(Object.keys(data).map((f) => [f, kindOf(type, f, data[f])]));
}

function _edits(kinds: Record<string, FieldKind>, data: Record<string, unknown>): Record<string, Edit> {
  return Object.fromEntries(Object.keys(data).map((f) => [f, editOf(kinds[f] ?? "text", data[f])]));
}

/** The fields whose stored value differs between two versions. */
function _changedFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => _stable(a[k]) !== _stable(b[k]));
}

function _stable(v: unknown): string {
  return textOf(v);
}

/** A stored value in words: a reference by its name, a list by its entries. */
function _shown(v: unknown): string {
  if (v === null || v === undefined || (Array.isArray(v) && v.every((e) => e === null))) return "(empty)";
  if (typeof v === "object" && !Array.isArray(v) && "display_value" in v) return textOf((v as { display_value: unknown }).display_value);
  if (Array.isArray(v)) return v.filter((e) => e !== null).map(textOf).join(", ");
  return textOf(v);
}

function _count(n: number, what = "field"): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
