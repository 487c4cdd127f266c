/**
 * @module views/indexes
 * The value index of each field in the flock (issue 24 point 1): status (declared, earned,
 * building with its progress, dropped), source and scope; "Add index" (type and field),
 * "Drop" and "Reset" per row. The server builds an index in the background and the feed
 * says nothing of it, so the page looks again every few seconds while something moves.
 */
import { isEngineField } from "@records-service/core";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api.js";
import { hasOwnRow, isMoving, statusLabel, type IndexView } from "../indexes.js";
import { encodePart, textOf } from "../text.js";
import { useLoad } from "./use-load.js";

/** How often the page looks again while an index is being built or removed. */
const POLL_MS = 2000;

export function Indexes({ flock }: { flock: string }) {
  const { value, error, reload } = useLoad(() => api<{ indexes: IndexView[] }>(`/${encodePart(flock)}/_indexes/`), [flock]);
  const views = value?.indexes ?? [];
  const types = [...new Set(views.map((v) => v.type))];
  const [shown, setShown] = useState("");
  const [type, setType] = useState("person");
  const [field, setField] = useState("");
  const [done, setDone] = useState("");
  const [failed, setFailed] = useState("");
  const moving = isMoving(views);
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [moving, reload]);

  const change = async (method: string, t: string, f: string, suffix = "") => {
    const name = `${t}.${f}`;
    try {
      const body = await api<{ index: IndexView | null; reset?: boolean }>(`/${encodePart(flock)}/_indexes/${encodePart(t)}/${encodePart(f)}/${suffix}`, { method });
      const now = body.index ? statusLabel(body.index) : "not indexed";
      setFailed("");
      setDone(body.reset === false ? `${name} had no row of its own: unchanged (${now}).` : `${name}: ${now}.`);
      reload();
      return true;
    } catch (e) {
      setDone("");
      setFailed(e instanceof ApiError ? `${name}: ${e.error}: ${e.detail}` : String(e));
      return false;
    }
  };
  const add = async (e: Event) => {
    e.preventDefault();
    if (await change("PUT", type, field.trim())) setField("");
  };

  return (
    <section>
      <h1>Indexes of {flock}</h1>
      <p class="muted">
        Filters on an indexed field are answered from its index; on any other field they scan the type's records. An added index is built in the
        background (filters scan until it is done).
      </p>
      <form class="row filters" aria-label="Add an index" onSubmit={add}>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {(types.includes(type) ? types : [type, ...types]).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Field
          <input value={field} required onInput={(e) => setField(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary">
          Add index
        </button>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {failed && (
        <p class="error" role="alert">
          {failed}
        </p>
      )}
      <p role="status">{done}</p>
      <div class="row">
        <label>
          Show
          <select value={shown} onChange={(e) => setShown(e.currentTarget.value)}>
            <option value="">All types</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <div class="scroll" tabIndex={0} role="region" aria-label="Indexes">
        <table>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Field</th>
              <th scope="col">Status</th>
              <th scope="col">Source</th>
              <th scope="col">Scope</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {views
              .filter((v) => !shown || v.type === shown)
              .map((v) => {
                const name = `${textOf(v.type)}.${textOf(v.field)}`;
                return (
                  <tr key={name}>
                    <td>{textOf(v.type)}</td>
                    <td>{textOf(v.field)}</td>
                    <td>
                      {statusLabel(v)}
                      {v.status === "building" && <progress aria-label={`${name}: ${statusLabel(v)}`} max={1} value={v.progress} />}
                    </td>
                    <td>{textOf(v.source)}</td>
                    <td>{v.flock === "*" ? "every flock" : "this flock"}</td>
                    <td>
                      {v.status !== "dropped" && !isEngineField(v.type, v.field) && (
                        <button type="button" class="danger" aria-label={`Drop ${name}`} onClick={() => change("DELETE", v.type, v.field)}>
                          Drop
                        </button>
                      )}{" "}
                      {hasOwnRow(v, flock) && (
                        <button type="button" aria-label={`Reset ${name}`} onClick={() => change("POST", v.type, v.field, "reset/")}>
                          Reset
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
