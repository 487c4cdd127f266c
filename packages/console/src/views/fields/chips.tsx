/**
 * @module views/fields/chips
 * A list of short texts (tags, emails, phone numbers) as chips: type and press Enter or a
 * comma to add, paste several at once (commas or new lines; a ";" stays, as in "ada@example.org;home"), × removes one,
 * Backspace in the empty box removes the last.
 */
import { useState } from "preact/hooks";

export function Chips(props: { id: string; label: string; value: string[]; disabled: boolean; invalid: boolean; describedBy?: string; onChange: (v: string[]) => void }) {
  const { id, label, value, disabled, invalid, describedBy, onChange } = props;
  const [draft, setDraft] = useState("");
  const add = (text: string) => {
    const items = text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
    const next = [...value];
    for (const item of items) if (!next.includes(item)) next.push(item);
    if (next.length !== value.length) onChange(next);
    setDraft("");
  };
  return (
    <div class="chips">
      <ul aria-label={`${label} entries`}>
        {value.map((item, i) => (
          <li key={`${i}:${item}`} class="chip">
            <span>{item}</span>
            <button type="button" aria-label={`Remove ${item}`} disabled={disabled} onClick={() => onChange(value.filter((_, j) => j !== i))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        value={draft}
        disabled={disabled}
        placeholder={value.length ? "Add another" : "Type and press Enter"}
        aria-invalid={invalid ? "true" : undefined}
        aria-describedby={describedBy}
        onInput={(e) => {
          const text = e.currentTarget.value;
          if (/[,\n]/.test(text)) add(text);
          else setDraft(text);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && draft.trim()) {
            e.preventDefault();
            add(draft);
          } else if (e.key === "Backspace" && draft === "" && value.length) {
            onChange(value.slice(0, -1));
          }
        }}
        // Text typed but not yet added counts when the box is left (or the form saved).
        onBlur={() => draft.trim() && add(draft)}
      />
    </div>
  );
}
