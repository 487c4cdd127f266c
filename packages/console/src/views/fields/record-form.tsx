/**
 * @module views/fields/record-form
 * A record's fields as a form: for a person grouped (name, contact, address, membership,
 * other), for other types in one group. Empty and derived fields are folded away until
 * "Show all fields"; a field the user touched or the server named in an error always shows.
 */
import type { ComponentChildren } from "preact";
import { Guard } from "../guard.js";
import { PERSON_GROUPS, type FieldKind } from "./describe.js";
import { FieldRow } from "./field-row.js";
import { sameEdit, type Edit } from "./value.js";

export interface RecordFormProps {
  flock: string;
  type: string;
  fields: readonly string[];
  kinds: Readonly<Record<string, FieldKind>>;
  targets: Readonly<Record<string, string | undefined>>;
  values: Readonly<Record<string, Edit>>;
  /** What the fields held when editing began (to tell touched fields). */
  initial: Readonly<Record<string, Edit>>;
  errors: Readonly<Record<string, string>>;
  disabled: boolean;
  showAll: boolean;
  /** Fields shown even when empty (the ones a new record is usually given). */
  primary?: readonly string[];
  extra?: (field: string) => ComponentChildren;
  onChange: (field: string, v: Edit) => void;
  onShowAll: (on: boolean) => void;
}

export function RecordForm(props: RecordFormProps) {
  const { flock, type, fields, kinds, targets, values, initial, errors, disabled, showAll, primary = [], extra, onChange, onShowAll } = props;
  const shown = (f: string) =>
    showAll || !!errors[f] || !sameEdit(values[f] ?? null, initial[f] ?? null) || (kinds[f] !== "derived" && (primary.includes(f) || !_empty(values[f] ?? null)));
  const groups = _groups(type, fields);
  const hidden = fields.filter((f) => !shown(f)).length;
  return (
    <>
      {groups.map((g) => {
        const visible = g.fields.filter(shown);
        if (!visible.length) return null;
        return (
          <fieldset key={g.title} class="group">
            <legend>{g.title}</legend>
            {visible.map((f) => (
              <Guard key={f} fallback={() => <p class="error">{f}: this field could not be shown</p>}>
                <FieldRow
                  flock={flock}
                  name={f}
                  kind={kinds[f] ?? "text"}
                  target={targets[f]}
                  value={values[f] ?? null}
                  error={errors[f]}
                  disabled={disabled}
                  extra={extra?.(f)}
                  onChange={(v) => onChange(f, v)}
                />
              </Guard>
            ))}
          </fieldset>
        );
      })}
      {(hidden > 0 || showAll) && (
        <p>
          <button type="button" class="link" aria-expanded={showAll} onClick={() => onShowAll(!showAll)}>
            {showAll ? "Show only filled-in fields" : `Show all fields (${hidden} more: empty or derived)`}
          </button>
        </p>
      )}
    </>
  );
}

// --- internal ---

function _empty(v: Edit): boolean {
  return v === null || v === "" || v === false || (Array.isArray(v) && v.length === 0);
}

function _groups(type: string, fields: readonly string[]): { title: string; fields: string[] }[] {
  if (type !== "person") return [{ title: "Fields", fields: [...fields] }];
  const placed = new Set<string>();
  const out = PERSON_GROUPS.map((g) => {
    const mine = g.fields.filter((f) => fields.includes(f));
    mine.forEach((f) => placed.add(f));
    return { title: g.title, fields: mine };
  });
  out.push({ title: "Other", fields: fields.filter((f) => !placed.has(f)) });
  return out;
}
