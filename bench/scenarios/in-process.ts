/**
 * @module bench/scenarios/in-process
 * Reads through the engine (`createRecordEngine` over `createSqliteStorage`, the list
 * parameters parsed by `parseListQuery` on every call, as the server does) against the same
 * question asked by hand in SQL on the same file (bench/lib/hand-sql). Medians in ms.
 */
import { createRecordEngine, parseListQuery, resolveSmartDate, formatTimestamp, type ListPage, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { openHandSql, type HandPage } from "../lib/hand-sql.js";
import { measureOptions, round3, timePair } from "../lib/measure.js";
import type { BenchContext, DatasetSample, Scenario, ScenarioResult } from "../lib/types.js";

/** One list question, in both forms. */
export interface ListCase {
  name: string;
  /** The query string the engine parses. */
  params(s: DatasetSample, now: Date): string;
  /** The hand-written WHERE (over `records r`, beside `cid` and state) and its arguments. */
  where(s: DatasetSample, f: (field: string) => number, now: Date): { where: string; args: unknown[] };
  /** The target on ours/hand at the largest size, when the issue sets one. */
  target?: string;
}

const _IN_VALUES = "r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND";

/** The list questions of issue 6 (bench/scenarios/postgres-in-process asks them of PostgreSQL). */
export const LIST_CASES: ListCase[] = [
  { name: "list page 1 of 25, no filter", params: () => "", where: () => ({ where: "", args: [] }) },
  {
    name: "exact filter on last_name",
    params: (s) => `last_name=${encodeURIComponent(s.lastName)}`,
    where: (s, f) => ({ where: `${_IN_VALUES} text = ?)`, args: [f("last_name"), s.lastName] }),
    target: "<= 1.5",
  },
  {
    name: "last_name__startswithi",
    params: (s) => `last_name__startswithi=${encodeURIComponent(s.lastNamePrefix.toUpperCase())}`,
    where: (s, f) => ({
      // The folded forms stored, and the values that are their own fold (stored without one).
      where: `${_IN_VALUES} folded >= ? AND folded < ? UNION ALL SELECT rid FROM record_values WHERE fid = ? AND text >= ? AND text < ?)`,
      args: [f("last_name"), s.lastNamePrefix, _nextPrefix(s.lastNamePrefix), f("last_name"), s.lastNamePrefix, _nextPrefix(s.lastNamePrefix)],
    }),
    target: "<= 1.5",
  },
  {
    name: "list field filter (tags)",
    params: (s) => `tags=${encodeURIComponent(s.tag)}`,
    where: (s, f) => ({ where: `${_IN_VALUES} text = ?)`, args: [f("tags"), s.tag] }),
  },
  {
    name: "mode=OR of two filters",
    params: (s) => `last_name=${encodeURIComponent(s.lastName)}&tags=${encodeURIComponent(s.otherTag)}&mode=OR`,
    where: (s, f) => ({
      where: `(${_IN_VALUES} text = ?) OR ${_IN_VALUES} text = ?))`,
      args: [f("last_name"), s.lastName, f("tags"), s.otherTag],
    }),
  },
  {
    name: "created__gte=last month",
    params: () => "created__gte=last%20month",
    where: (_s, _f, now) => ({ where: "r.created >= ?", args: [formatTimestamp(resolveSmartDate("last month", now)!)] }),
  },
];

/** The in-process scenarios. */
export const scenarios: Scenario[] = [
  { name: "get by id", group: "in-process", run: (ctx) => _getById(ctx) },
  { name: "list queries", group: "in-process", run: (ctx) => _lists(ctx) },
];

// --- internal ---

const _PERSON = "person";

function _open(ctx: BenchContext) {
  const storage = createSqliteStorage({ path: ctx.dataset.file });
  const engine = createRecordEngine({ storage });
  const hand = openHandSql(ctx.dataset.file);
  return { storage, engine, hand };
}

async function _getById(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { storage, engine, hand } = _open(ctx);
  try {
    const ids = ctx.dataset.sample.personIds;
    const t = await timePair(
      (i) => engine.get(ctx.dataset.flock, _PERSON, ids[i % ids.length]!),
      (i) => hand.getById(ids[i % ids.length]!),
      measureOptions(ctx.quick),
    );
    return [_result("in-process: get by id", t.ours, t.baseline, 1, undefined, t.iterations)];
  } finally {
    hand.close();
    await storage.close();
  }
}

async function _lists(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { storage, engine, hand } = _open(ctx);
  const { flock, sample } = ctx.dataset;
  const cid = hand.cid(flock, _PERSON);
  const fid = (name: string) => hand.fid(cid, name);
  const out: ScenarioResult[] = [];
  try {
    const cases: (ListCase & { page?: number })[] = [...LIST_CASES];
    // The last page of the unfiltered list (its number depends on the size).
    const now = new Date();
    const all = await engine.list(flock, _PERSON, parseListQuery(new URLSearchParams(""), { surface: "v1", now }));
    const lastPage = Math.max(1, Math.ceil(all.total / 25));
    cases.push({ name: "last page of the list", params: () => `page=${lastPage}`, where: () => ({ where: "", args: [] }), page: lastPage });

    for (const c of cases) {
      const params = c.params(sample, now);
      const { where, args } = c.where(sample, fid, now);
      const ours = () =>
        engine.list(flock, _PERSON, parseListQuery(new URLSearchParams(params), { surface: "v1", now }));
      const baseline = (): HandPage => {
        if (c.page === undefined) return hand.list(cid, where, args, { limit: 25, offset: 0 });
        // The last page read backwards: the count first, then the remainder from the end.
        const total = (hand.db.prepare(`SELECT count(*) AS n FROM records r WHERE r.cid = ? AND r.state = 'updated'`).get(cid) as { n: number }).n;
        const rest = total - (c.page - 1) * 25;
        return hand.list(cid, where, args, { limit: rest, offset: 0, fromEnd: true });
      };
      _check(c.name, await ours(), baseline());
      const t = await timePair(ours, baseline, measureOptions(ctx.quick));
      const page = await ours();
      out.push(_result(`in-process: ${c.name}`, t.ours, t.baseline, page.total, c.target, t.iterations));
    }
    return out;
  } finally {
    hand.close();
    await storage.close();
  }
}

/** Both sides must answer the same question: same total, same ids on the page. */
/** The smallest string above every string starting with `p` (ASCII prefixes: bump the last character). */
function _nextPrefix(p: string): string {
  return p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);
}

function _check(name: string, ours: ListPage<StoredRecord>, hand: HandPage): void {
  const a = ours.records.map((r) => r.id).join(",");
  const b = hand.records.map((r) => r.id).join(",");
  if (ours.total !== hand.total || a !== b) {
    throw new Error(`${name}: the engine and the hand-written SQL disagree (totals ${ours.total} / ${hand.total})`);
  }
}

function _result(scenario: string, ours: number, baseline: number, rows: number, target: string | undefined, iterations: number): ScenarioResult {
  return {
    scenario,
    ours: round3(ours),
    baseline: round3(baseline),
    baselineName: "hand-written SQL",
    unit: "ms",
    ratio: round3(ours / baseline),
    ...(target ? { target } : {}),
    rows,
    note: `median of ${iterations}`,
  };
}
