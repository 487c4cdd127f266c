/**
 * @module views/dashboard
 * A picture of the flock: memberships by status, memberships expiring in the next 30, 60
 * and 90 days and lapsed in the last 90, new people per month over a year, and (for
 * administrators, who may read the outbox) the outbox's pending, failing and dead jobs.
 * Counts are the server's, one request per chart: memberships by status, by end day
 * (`groupby …?by=day`, summed into the four renewal bars) and people by the month they were
 * created (`groupby …/created/count?by=month`), each counted in the database; the page only
 * sums and draws. It reloads when the feed brings a change.
 */
import { api, ApiError } from "../api.js";
import { useChanges, type Live } from "../live.js";
import { encodePart, textOf } from "../text.js";
import { BarChart, type Bar } from "./bar-chart.js";
import { useLoad } from "./use-load.js";

export function Dashboard({ flock, live, outbox }: { flock: string; live: Live; outbox: boolean }) {
  const f = encodePart(flock);
  /** Counts by a field's value (cut to a period with `by`), narrowed by list filters: one request each. */
  const groups = async (type: string, field: string, params: [string, string][] = []): Promise<{ count: number; value: unknown }[]> => {
    try {
      const q = params.length ? `?${new URLSearchParams(params)}` : "";
      return (await api<{ results: { count: number; value: unknown }[] }>(`/${f}/groupby/${type}/${field}/count${q}`)).results;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return []; // the flock does not serve the type
      throw e;
    }
  };
  const states = useLoad(async (): Promise<Bar[]> => {
    const g = await groups("membership", "membership_record_status");
    return g.map((r) => ({ label: textOf(r.value) || "(none)", value: r.count }));
  }, [flock]);
  // One request: memberships ending from 90 days ago to 90 days ahead, counted per day, summed here.
  const renewals = useLoad(async (): Promise<Bar[]> => {
    const today = _day(0);
    const days = await groups("membership", "end_date", [["by", "day"], ["end_date__gte", _day(-90)], ["end_date__lte", _day(90)]]);
    const sum = (from: string, to: string) => days.reduce((n, g) => (typeof g.value === "string" && g.value >= from && g.value <= to ? n + g.count : n), 0);
    return [
      { label: "Expire within 30 days", short: "≤ 30 d", value: sum(today, _day(30)) },
      { label: "Within 60 days", short: "≤ 60 d", value: sum(today, _day(60)) },
      { label: "Within 90 days", short: "≤ 90 d", value: sum(today, _day(90)) },
      { label: "Lapsed in the last 90 days", short: "Lapsed", value: sum(_day(-90), _day(-1)) },
    ];
  }, [flock]);
  // One request: people created since the first of the twelve months, counted per month in the database.
  const people = useLoad(async (): Promise<Bar[]> => {
    const months = _months(12);
    const counted = await groups("person", "created", [["by", "month"], ["created__gte", months[0]!.from]]);
    const byMonth = new Map(counted.map((g) => [g.value, g.count]));
    return months.map((m) => ({ label: m.label, value: byMonth.get(m.from.slice(0, 7)) ?? 0 }));
  }, [flock]);
  const jobs = useLoad(async (): Promise<Bar[]> => {
    if (!outbox) return [];
    const list = (status: string) => api<{ jobs: { attempts: number }[] }>(`/${f}/outbox/?status=${status}&limit=1000`).then((a) => a.jobs);
    const [pending, dead] = await Promise.all([list("pending"), list("dead")]);
    return [
      { label: "Pending", value: pending.filter((j) => !j.attempts).length },
      { label: "Failing (retrying)", short: "Failing", value: pending.filter((j) => j.attempts > 0).length },
      { label: "Dead", value: dead.length },
    ];
  }, [flock, outbox]);
  useChanges(live, (c) => {
    if (c.resource_type === "membership") (states.reload(), renewals.reload());
    if (c.resource_type === "person") people.reload();
    if (c.resource_type === "data_event") jobs.reload();
  });
  const errors = [states.error, renewals.error, people.error, jobs.error].filter(Boolean);
  return (
    <section>
      <h1>Dashboard of {flock}</h1>
      {errors.map((e) => (
        <p key={e} class="error" role="alert">
          {e}
        </p>
      ))}
      <div class="charts">
        {states.value && (states.value.length ? <BarChart title="Memberships by status" bars={states.value} /> : <p>No memberships yet.</p>)}
        {renewals.value && <BarChart title="Memberships expiring and lapsed" bars={renewals.value} />}
        {people.value && <BarChart title="New people per month" bars={people.value} />}
        {outbox && jobs.value && <BarChart title="Outbox health" bars={jobs.value} />}
      </div>
    </section>
  );
}

// --- internal ---

/** The UTC date `days` from today, as `YYYY-MM-DD`. */
function _day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The last `n` calendar months (UTC), oldest first: their first day and a label. */
function _months(n: number): { from: string; label: string }[] {
  const now = new Date();
  const fmt = new Intl.DateTimeFormat(undefined, { month: "short", year: "2-digit", timeZone: "UTC" });
  const out = [];
  for (let i = n - 1; i >= 0; i--) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push({ from: start.toISOString().slice(0, 10), label: fmt.format(start) });
  }
  return out;
}
