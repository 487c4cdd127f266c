/**
 * @module views/list-bulk
 * The bulk action on the rows selected in a list: add or remove a tag, or set one field,
 * queued as a task (`POST bulk_action`, the records named by their ids), whose progress
 * then shows live beside the form.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.js";
import type { Live } from "../live.js";
import { encodePart } from "../text.js";
import { TaskProgress } from "./task-progress.js";

const ACTIONS = [
  { value: "add_tag", label: "Add a tag" },
  { value: "remove_tag", label: "Remove a tag" },
  { value: "set-single-field", label: "Set a field" },
] as const;

export function BulkBar({ flock, type, ids, live, onClear }: { flock: string; type: string; ids: string[]; live: Live; onClear: () => void }) {
  const [action, setAction] = useState<string>("add_tag");
  const [field, setField] = useState("");
  const [value, setValue] = useState("");
  const [task, setTask] = useState("");
  const [error, setError] = useState("");
  const run = async (e: Event) => {
    e.preventDefault();
    setError("");
    try {
      const body = {
        action,
        resource_type: type,
        query: { id__or: ids },
        value,
        ...(action === "set-single-field" ? { field } : {}),
        description: `${ACTIONS.find((a) => a.value === action)?.label ?? action} on ${ids.length} ${type} record${ids.length === 1 ? "" : "s"}`,
      };
      const answer = await api<{ task_id: string }>(`/${encodePart(flock)}/bulk_action/`, { method: "POST", json: body });
      setTask(answer.task_id);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.error}: ${err.detail}` : String(err));
    }
  };
  return (
    <form class="bulk row" aria-label="Bulk action" onSubmit={run}>
      <span>
        {ids.length} selected{" "}
        <button type="button" class="link" onClick={onClear}>
          Clear
        </button>
      </span>
      <label>
        Action
        <select value={action} onChange={(e) => setAction(e.currentTarget.value)}>
          {ACTIONS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      </label>
      {action === "set-single-field" && (
        <label>
          Field
          <input value={field} required onInput={(e) => setField(e.currentTarget.value)} />
        </label>
      )}
      <label>
        {action === "set-single-field" ? "Value" : "Tag"}
        <input value={value} required onInput={(e) => setValue(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary">
        Run on {ids.length}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {task && <TaskProgress key={task} flock={flock} id={task} live={live} />}
    </form>
  );
}
