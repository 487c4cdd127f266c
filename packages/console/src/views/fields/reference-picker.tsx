/**
 * @module views/fields/reference-picker
 * A reference field: the referenced record's name as a link, and "Change" opening a search
 * of the target type (the API's lookup: records whose display value contains the text) to
 * pick another; "Clear" unsets it.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../../api.js";
import { hrefOf } from "../../route.js";
import { encodePart, textOf } from "../../text.js";
import { useMembershipTitles } from "./membership-titles.js";
import type { RefValue } from "./value.js";

export function ReferencePicker(props: {
  id: string;
  flock: string;
  target: string;
  label: string;
  value: RefValue | null;
  disabled: boolean;
  invalid: boolean;
  describedBy?: string;
  onChange: (v: RefValue | null) => void;
}) {
  const { id, flock, target, label, value, disabled, invalid, describedBy, onChange } = props;
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [found, setFound] = useState<{ id: string; text: string }[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!open) return;
    let live = true;
    const t = setTimeout(() => {
      api<{ id: unknown; text: unknown }[]>(`/${encodePart(flock)}/lookup/${encodePart(target)}/?q=${encodePart(q)}&limit=10`).then(
        (entries) => {
          if (!live) return;
          setFound(entries.map((e) => ({ id: textOf(e.id), text: textOf(e.text) })));
          setError("");
        },
        (e: unknown) => live && setError(e instanceof ApiError ? `${e.error}: ${e.detail}` : String(e)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [open, q, flock, target]);
  const path = value ? _path(value.uri) : undefined;
  const titles = useMembershipTitles(flock, target, [path?.[2], ...found.map((f) => f.id)]);
  const shown = value ? (titles.get(path?.[2] ?? "") ?? value.label) : "";
  return (
    <div class="picker">
      <div class="row tight">
        {value ? path ? <a href={hrefOf(path)}>{shown}</a> : <span>{shown}</span> : <span class="muted">None</span>}
        {!disabled && (
          <button type="button" class="small" aria-expanded={open} aria-controls={`${id}-search`} onClick={() => setOpen(!open)} aria-label={`Change ${label}`}>
            {open ? "Close" : value ? "Change" : "Choose"}
          </button>
        )}
        {!disabled && value && (
          <button type="button" class="small" onClick={() => onChange(null)} aria-label={`Clear ${label}`}>
            Clear
          </button>
        )}
      </div>
      {open && (
        <div id={`${id}-search`} class="picker-search">
          <input
            id={id}
            type="search"
            value={q}
            placeholder={`Search ${target.replace(/_/g, " ")} by name`}
            aria-label={`Search ${target.replace(/_/g, " ")} for ${label}`}
            aria-invalid={invalid ? "true" : undefined}
            aria-describedby={describedBy}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
          {error && <p class="error">{error}</p>}
          <ul class="picker-results">
            {found.map((f) => (
              <li key={f.id}>
                <button
                  type="button"
                  class="link"
                  onClick={() => {
                    onChange({ uri: _uri(flock, target, f.id), label: titles.get(f.id) ?? (f.text || f.id) });
                    setOpen(false);
                  }}
                >
                  {titles.get(f.id) ?? (f.text || f.id)}
                </button>
              </li>
            ))}
            {found.length === 0 && !error && <li class="muted">No match.</li>}
          </ul>
        </div>
      )}
    </div>
  );
}

// --- internal ---

/** A lookup entry's id is a record id or already a URI. */
function _uri(flock: string, type: string, id: string): string {
  return id.startsWith("/") ? id : `/${flock}/${type}/${id}/`;
}

function _path(uri: string): string[] | undefined {
  const m = /^\/([^/]+)\/([^/]+)\/([0-9a-f]{24})\/?$/.exec(uri);
  return m ? [m[1]!, m[2]!, m[3]!] : undefined;
}
