/**
 * @module views/record-new
 * A new record of a type (`#/{flock}/{type}/_new`): the type's form (a person's whole schema
 * grouped, the contract's fields for memberships, bookings, payments and the like, and any
 * field the user adds, since other types are open), created through the API. The server's
 * refusals show beside their fields, focus on the first; a created record opens.
 */
import { useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError, fieldErrors } from "../api.js";
import { hrefOf, navigate } from "../route.js";
import { encodePart } from "../text.js";
import { kindOf, labelOf, newRecordFields, referenceTarget, type FieldKind } from "./fields/describe.js";
import { focusFirstInvalid } from "./fields/focus.js";
import { RecordForm } from "./fields/record-form.js";
import { useSaveShortcut } from "./fields/use-save-shortcut.js";
import { editOf, valueOf, type Edit } from "./fields/value.js";

/** Types the service writes itself: no "New record" for them. */
export const SERVICE_WRITTEN = ["data_event", "core_event"];

/** The "New record" link a list shows (none for types only the service writes). */
export function NewRecordLink({ flock, type }: { flock: string; type: string }) {
  if (SERVICE_WRITTEN.includes(type)) return null;
  return (
    <p class="new-record">
      <a class="button primary" href={hrefOf([flock, type, "_new"])}>
        New {type.replace(/_/g, " ")}
      </a>
    </p>
  );
}

export function RecordNew({ flock, type }: { flock: string; type: string }) {
  const form = useRef<HTMLFormElement>(null);
  const [extraFields, setExtraFields] = useState<string[]>([]);
  const fields = useMemo(() => [...newRecordFields(type), ...extraFields], [type, extraFields]);
  const kinds = useMemo(() => Object.fromEntries(fields.map((f) => [f, kindOf(type, f, undefined)])) as Record<string, FieldKind>, [type, fields]);
  const targets = useMemo(() => Object.fromEntries(fields.map((f) => [f, referenceTarget(type, f, undefined)])), [type, fields]);
  const initial = useMemo(() => Object.fromEntries(fields.map((f) => [f, editOf(kinds[f] ?? "text", undefined)])), [fields, kinds]);
  const [values, setValues] = useState<Record<string, Edit>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState("");
  const [showAll, setShowAll] = useState(false);
  const [newField, setNewField] = useState("");
  const [busy, setBusy] = useState(false);
  useSaveShortcut(form, true);
  const current = { ...initial, ...values };

  if (SERVICE_WRITTEN.includes(type)) {
    return (
      <section>
        <h1>New {type}</h1>
        <p>{type} records are created by the service, not by hand.</p>
      </section>
    );
  }

  const fail = (byField: Record<string, string>, text: string) => {
    setErrors(byField);
    setResult(text);
    // After the render that shows the messages.
    setTimeout(() => focusFirstInvalid(form.current, fields, byField));
  };

  const create = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setErrors({});
    setResult("");
    const body: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const f of fields) {
      const edit = current[f] ?? null;
      if (edit === null || edit === "" || edit === false || (Array.isArray(edit) && !edit.length)) continue;
      const v = valueOf(kinds[f] ?? "text", edit, undefined);
      if (v.error) local[f] = v.error;
      else body[f] = v.value;
    }
    if (Object.keys(local).length) return fail(local, "Not created: correct the fields marked.");
    setBusy(true);
    try {
      const made = await api<{ uri: string }>(`/${encodePart(flock)}/${encodePart(type)}/`, { method: "POST", json: body });
      const id = /\/([0-9a-f]{24})\/?$/.exec(made.uri)?.[1];
      navigate(id ? hrefOf([flock, type, id]) : hrefOf([flock, type]));
    } catch (err) {
      if (!(err instanceof ApiError)) return fail({}, String(err));
      const byField = fieldErrors(err.detail, fields);
      fail(byField, Object.keys(byField).length ? `Not created: ${err.error}.` : `Not created: ${err.error}: ${err.detail}`);
    } finally {
      setBusy(false);
    }
  };

  const addField = () => {
    const name = newField.trim().toLowerCase().replace(/\s+/g, "_");
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) return setErrors({ ...errors, _new: "A field name is lower-case letters, digits and _ (e.g. venue or start_date)." });
    if (!fields.includes(name)) setExtraFields([...extraFields, name]);
    setNewField("");
    setErrors(({ _new: _, ...rest }) => rest);
  };

  return (
    <section>
      <p>
        <a href={hrefOf([flock, type])}>← {type}</a>
      </p>
      <h1>New {type.replace(/_/g, " ")}</h1>
      <form ref={form} class="editor" onSubmit={create} aria-label="New record">
        {fields.length === 0 && <p class="muted">This type has no set fields: add the ones it needs.</p>}
        <RecordForm
          flock={flock}
          type={type}
          fields={fields}
          kinds={kinds}
          targets={targets}
          values={current}
          initial={initial}
          errors={errors}
          disabled={false}
          showAll={showAll}
          primary={type === "person" ? ["title", "first_name", "last_name", "email", "telephone", "address_lines", "locality", "postal_code", "country", "date_of_birth", "tags"] : fields}
          onChange={(f, v) => setValues((vs) => ({ ...vs, [f]: v }))}
          onShowAll={setShowAll}
        />
        {type !== "person" && (
          <div class="row">
            <label>
              Add a field
              <input value={newField} placeholder="field name" aria-invalid={errors._new ? "true" : undefined} onInput={(e) => setNewField(e.currentTarget.value)} onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), addField())} />
            </label>
            <button type="button" onClick={addField}>
              Add
            </button>
            {errors._new && <p class="error">{errors._new}</p>}
          </div>
        )}
        <div class="row savebar">
          <button type="submit" class="primary" disabled={busy} aria-keyshortcuts="Control+S Meta+S">
            Create {labelOf(type).toLowerCase()}
          </button>
          <span role="status" class={result ? "error" : ""}>
            {result}
          </span>
        </div>
      </form>
    </section>
  );
}
