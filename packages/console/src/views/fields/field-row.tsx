/**
 * @module views/fields/field-row
 * One field of a form: its label in words, the widget for its kind (checkbox, date box,
 * chips, reference picker, number, long text, JSON), read-only text for a derived field,
 * and the server's message beside it.
 */
import type { ComponentChildren } from "preact";
import { Chips } from "./chips.js";
import { labelOf, type FieldKind } from "./describe.js";
import { ReferencePicker } from "./reference-picker.js";
import type { Edit, RefValue } from "./value.js";

export interface FieldRowProps {
  flock: string;
  name: string;
  kind: FieldKind;
  /** The type a reference points at. */
  target?: string | undefined;
  value: Edit;
  error: string | undefined;
  disabled: boolean;
  /** Shown under the widget (file downloads, a note). */
  extra?: ComponentChildren;
  onChange: (v: Edit) => void;
}

export function FieldRow(props: FieldRowProps) {
  const { flock, name, kind, target, value, error, disabled, extra, onChange } = props;
  const id = `f-${name}`;
  const label = labelOf(name);
  const described = error ? `e-${name}` : undefined;
  const common = {
    id,
    name,
    disabled,
    "aria-invalid": error ? ("true" as const) : undefined,
    "aria-describedby": described,
  };
  let widget;
  switch (kind) {
    case "derived":
      widget = (
        <output id={id} class="derived" aria-label={`${label} (derived)`}>
          {String(value ?? "") || "—"}
        </output>
      );
      break;
    case "boolean":
      widget = <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
      break;
    case "date":
      // A value that is not a day (a timestamp kept as text) stays a text box, so it shows as it is.
      widget = /^(\d{4}-\d{2}-\d{2})?$/.test(String(value ?? "")) ? (
        <input {...common} type="date" value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <input {...common} value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />
      );
      break;
    case "number":
      widget = <input {...common} inputMode="decimal" value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />;
      break;
    case "list":
      widget = <Chips id={id} label={label} value={Array.isArray(value) ? value : []} disabled={disabled} invalid={!!error} describedBy={described} onChange={onChange} />;
      break;
    case "reference":
      widget = (
        <ReferencePicker
          id={id}
          flock={flock}
          target={target ?? "person"}
          label={label}
          value={value && typeof value === "object" && !Array.isArray(value) ? (value as RefValue) : null}
          disabled={disabled}
          invalid={!!error}
          describedBy={described}
          onChange={onChange}
        />
      );
      break;
    case "longtext":
    case "json":
      widget = <textarea {...common} rows={kind === "json" ? 3 : 3} value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />;
      break;
    default:
      widget = <input {...common} value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />;
  }
  return (
    <div class={`field kind-${kind}`}>
      {kind === "derived" ? (
        <span class="label" id={`l-${name}`}>
          {label} <span class="muted">(derived)</span>
        </span>
      ) : kind === "reference" ? (
        <span class="label">{label}</span>
      ) : (
        <label for={id}>{label}</label>
      )}
      <div class="widget">
        {widget}
        {extra}
      </div>
      {error && (
        <p id={`e-${name}`} class="error field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
