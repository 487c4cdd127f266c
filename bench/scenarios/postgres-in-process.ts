/**
 * @module bench/scenarios/postgres-in-process
 * `--db postgres`: reads through the engine (`createRecordEngine` over
 * `createPostgresStorage`, the list parameters parsed by `parseListQuery` on every call, as
 * the server does) against the same question asked by hand in SQL on the same database
 * (bench/lib/hand-pg). The questions are bench/scenarios/in-process's. Medians in ms.
 */
import { createRecordEngine, formatTimestamp, parseListQuery, resolveSmartDate, type ListPage, type StoredRecord } from "@records-service/core";
import { createPostgresStorage } from "@records-service/postgres";
import { HAND_COLUMNS, openHandPg, plainQuery, type HandQuery } from "../lib/hand-pg.js";
import type { HandPage } from "../lib/hand-sql.js";
import { measureOptions, round3, timePair } from "../lib/measure.js";
import type { BenchContext, DatasetSample, Scenario, ScenarioResult } from "../lib/types.js";
import { LIST_CASES } from "./in-process.js";

/** The in-process scenarios on PostgreSQL. */
export const scenarios: Scenario[] = [
  { name: "get by id", group: "in-process", db: "postgres", run: (ctx) => _getById(ctx) },
  { name: "list queries", group: "in-process", db: "postgres", run: (ctx) => _lists(ctx) },
];

/**
 * Each list question as hand-written SQL on PostgreSQL (value-index texts are bytes). The
 * count is the plainest correct one (each match's state checked, as bench/lib/hand-sql's);
 * the page is the plainest form where PostgreSQL plans it well, else the form a person
 * would rewrite it to after one EXPLAIN (measured at 1M): the exact match joined to the
 * value index in its order (the `IN` form sorts every match), the prefix range through
 * `= ANY(ARRAY(...))` (the `IN` form fetches and sorts every match), the `created` range
 * behind an `OFFSET 0` fence (else the planner walks every record in `rid` order for the
 * newest ones), and the OR's count over a `UNION` of the two sets.
 */
const PG_QUERIES: Record<string, (cid: number, s: DatasetSample, f: (field: string) => Promise<number>, now: Date) => Promise<HandQuery>> = {
  "list page 1 of 25, no filter": async (cid) => plainQuery(cid, "", []),
  "exact filter on last_name": async (cid, s, f) => ({
    ...plainQuery(cid, `${_IN_VALUES} text = ?)`, [await f("last_name"), _bytes(s.lastName)]),
    page: `SELECT ${HAND_COLUMNS} FROM record_values v JOIN records r ON r.rid = v.rid
           WHERE r.cid = ? AND r.state = 'updated' AND v.fid = ? AND v.text = ?`,
    order: "v.rid",
  }),
  "last_name__startswithi": async (cid, s, f) => {
    const range = [await f("last_name"), _bytes(s.lastNamePrefix), _bytes(_nextPrefix(s.lastNamePrefix))];
    const args = [...range, ...range];
    // The folded forms stored, and the values that are their own fold (stored without one).
    const both = "folded >= ? AND folded < ? UNION ALL SELECT rid FROM record_values WHERE fid = ? AND text >= ? AND text < ?";
    return {
      ...plainQuery(cid, `${_IN_VALUES} ${both})`, args),
      page: `SELECT ${HAND_COLUMNS} FROM records r WHERE r.cid = ? AND r.state = 'updated'
             AND r.rid = ANY(ARRAY(SELECT rid FROM record_values WHERE fid = ? AND ${both}))`,
    };
  },
  "list field filter (tags)": async (cid, s, f) => plainQuery(cid, `${_IN_VALUES} text = ?)`, [await f("tags"), _bytes(s.tag)]),
  "mode=OR of two filters": async (cid, s, f) => {
    const q = plainQuery(cid, `${_IN_VALUES} text = ?) OR ${_IN_VALUES} text = ?)`, [
      await f("last_name"),
      _bytes(s.lastName),
      await f("tags"),
      _bytes(s.otherTag),
    ]);
    return {
      ...q,
      count: `SELECT count(*) AS n FROM records r WHERE r.cid = ? AND r.state = 'updated'
              AND r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND text = ? UNION SELECT rid FROM record_values WHERE fid = ? AND text = ?)`,
    };
  },
  "created__gte=last month": async (cid, _s, _f, now) => {
    const q = plainQuery(cid, "r.created >= ?", [formatTimestamp(resolveSmartDate("last month", now)!)]);
    return { ...q, page: `SELECT ${HAND_COLUMNS} FROM (SELECT ${HAND_COLUMNS}, r.rid ${q.page.slice(q.page.indexOf("FROM"))} OFFSET 0) r` };
  },
};

// --- internal ---

const _PERSON = "person";
const _IN_VALUES = "r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND";
const _DB = "(PostgreSQL)";

async function _open(ctx: BenchContext) {
  const { dataset } = ctx.postgres!;
  // As the server opens it: pool of 10, the change listener on (cached account lookups).
  const storage = await createPostgresStorage({ url: dataset.url });
  const engine = createRecordEngine({ storage });
  const hand = openHandPg(dataset.url);
  return { dataset, storage, engine, hand };
}

async function _getById(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset, storage, engine, hand } = await _open(ctx);
  try {
    const ids = dataset.sample.personIds;
    const t = await timePair(
      (i) => engine.get(dataset.flock, _PERSON, ids[i % ids.length]!),
      (i) => hand.getById(ids[i % ids.length]!),
      measureOptions(ctx.quick),
    );
    return [_result("get by id", t.ours, t.baseline, 1, undefined, t.iterations)];
  } finally {
    await hand.close();
    await storage.close();
  }
}

async function _lists(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset, storage, engine, hand } = await _open(ctx);
  const { flock, sample } = dataset;
  const out: ScenarioResult[] = [];
  try {
    const cid = await hand.cid(flock, _PERSON);
    const fid = (name: string) => hand.fid(cid, name);
    const now = new Date();
    const cases: { name: string; params: string; hand: HandQuery; target?: string; page?: number }[] = [];
    for (const c of LIST_CASES) {
      const pg = PG_QUERIES[c.name];
      if (!pg) throw new Error(`no PostgreSQL form of the list question '${c.name}'`);
      cases.push({ name: c.name, params: c.params(sample, now), hand: await pg(cid, sample, fid, now), ...(c.target ? { target: c.target } : {}) });
    }
    // The last page of the unfiltered list (its number depends on the size).
    const all = await engine.list(flock, _PERSON, parseListQuery(new URLSearchParams(""), { surface: "v1", now }));
    const lastPage = Math.max(1, Math.ceil(all.total / 25));
    cases.push({ name: "last page of the list", params: `page=${lastPage}`, hand: plainQuery(cid, "", []), page: lastPage });

    for (const c of cases) {
      const ours = () => engine.list(flock, _PERSON, parseListQuery(new URLSearchParams(c.params), { surface: "v1", now }));
      const baseline = async (): Promise<HandPage> => {
        if (c.page === undefined) return hand.list(c.hand, { limit: 25, offset: 0 });
        // The last page read backwards: the count first, then the remainder from the end.
        const rest = (await hand.count(cid)) - (c.page - 1) * 25;
        return hand.list(c.hand, { limit: rest, offset: 0, fromEnd: true });
      };
      _check(c.name, await ours(), await baseline());
      const t = await timePair(ours, baseline, measureOptions(ctx.quick));
      const page = await ours();
      out.push(_result(c.name, t.ours, t.baseline, page.total, c.target, t.iterations));
    }
    return out;
  } finally {
    await hand.close();
    await storage.close();
  }
}

/** Both sides must answer the same question: same total, same ids on the page. */
function _check(name: string, ours: ListPage<StoredRecord>, hand: HandPage): void {
  const a = ours.records.map((r) => r.id).join(",");
  const b = hand.records.map((r) => r.id).join(",");
  if (ours.total !== hand.total || a !== b) {
    throw new Error(`${name}: the engine and the hand-written SQL disagree on PostgreSQL (totals ${ours.total} / ${hand.total})`);
  }
}

function _result(name: string, ours: number, baseline: number, rows: number, target: string | undefined, iterations: number): ScenarioResult {
  return {
    scenario: `in-process ${_DB}: ${name}`,
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

/** The smallest string above every string starting with `p` (ASCII prefixes: bump the last character). */
function _nextPrefix(p: string): string {
  return p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);
}

function _bytes(text: string): Buffer {
  return Buffer.from(text, "utf8");
}
