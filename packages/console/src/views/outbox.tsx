/**
 * @module views/outbox
 * Pending, held and dead jobs of the flock's outbox (webhooks, emails): attempts, last
 * error (a held job's says why it is held), next attempt, and "Retry now". The outbox is
 * served to administrator keys only.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { displayOf } from "../format.js";
import { encodePart, textOf } from "../text.js";
import { NoActiveTriggerWarning } from "./triggers.js";
import { useLoad } from "./use-load.js";

interface Job {
  id: string;
  trigger: string;
  action: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  last_status: number | null;
}

export function Outbox({ flock, live }: { flock: string; live: Live }) {
  const [status, setStatus] = useState("pending");
  const { value, error, reload } = useLoad(() => api<{ jobs: Job[] }>(`/${encodePart(flock)}/outbox/?status=${status}`), [flock, status]);
  const [message, setMessage] = useState("");
  useChanges(live, (c) => {
    if (c.resource_type === "data_event") reload();
  });
  const retry = async (job: Job) => {
    try {
      await api(`/${encodePart(flock)}/outbox/${encodePart(job.id)}/retry/`, { method: "POST" });
      setMessage(`Job ${job.id} is due now.`);
      reload();
    } catch (e) {
      setMessage(e instanceof ApiError ? `${e.error}: ${e.detail}` : String(e));
    }
  };
  return (
    <section>
      <h1>Outbox of {flock}</h1>
      <NoActiveTriggerWarning flock={flock} />
      <div class="row" role="group" aria-label="Status">
        {["pending", "held", "dead", "done"].map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {s}
          </button>
        ))}
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {message && <p role="status">{message}</p>}
      {value && value.jobs.length === 0 && <p>No {status} jobs.</p>}
      {status === "held" && value && value.jobs.length > 0 && (
        <p role="status">Held jobs wait for their trigger, which is missing or inactive in the applied configuration; each is delivered once the trigger is back.</p>
      )}
      <div class="scroll" tabIndex={0} role="region" aria-label="Jobs">
        <table>
          <thead>
            <tr>
              <th scope="col">Trigger</th>
              <th scope="col">Action</th>
              <th scope="col" class="num">Attempts</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Last error</th>
              <th scope="col">
                <span class="sr-only">Retry</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {value?.jobs.map((j) => (
              <tr key={j.id}>
                <td>{textOf(j.trigger)}</td>
                <td>{textOf(j.action)}</td>
                <td class="num">{textOf(j.attempts)}</td>
                <td>{displayOf(j.next_attempt_at)}</td>
                <td>
                  {j.last_status ? `${textOf(j.last_status)} ` : ""}
                  {textOf(j.last_error)}
                </td>
                <td>
                  {j.status !== "done" && (
                    <button type="button" onClick={() => retry(j)}>
                      Retry now
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
