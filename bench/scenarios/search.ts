/**
 * @module bench/scenarios/search
 * Issue 14's search: `searchContacts` through the engine (index candidates from FTS5:
 * whole words, then word starts; ranked by edit distance) against the bare FTS5 match of
 * the same terms on the same file (the index's own cost). Target: under 20 ms at 100k
 * persons. Medians in ms.
 */
import { createRecordEngine, searchContacts, SEARCH_TYPES, searchTerms } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { measureOptions, round3, timePair, type PairTiming } from "../lib/measure.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The search scenarios (SQLite). */
export const scenarios: Scenario[] = [{ name: "search", group: "search", run: (ctx) => _search(ctx) }];

/** A result row of a search timing against its bare index query; the target is issue 14's. */
export function searchRow(scenario: string, t: PairTiming, baselineName: string, rows: number): ScenarioResult {
  return {
    scenario,
    ours: round3(t.ours),
    baseline: round3(t.baseline),
    baselineName,
    unit: "ms",
    ratio: round3(t.ours / t.baseline),
    target: "< 20 ms",
    met: t.ours < 20,
    rows,
    note: `median of ${t.iterations}`,
  };
}

// --- internal ---

async function _search(ctx: BenchContext): Promise<ScenarioResult[]> {
  const storage = createSqliteStorage({ path: ctx.dataset.file });
  const engine = createRecordEngine({ storage });
  const hand = new Database(ctx.dataset.file, { readonly: true });
  const { flock, sample } = ctx.dataset;
  const out: ScenarioResult[] = [];
  try {
    const bare = hand.prepare("SELECT rowid FROM record_search WHERE record_search MATCH ? LIMIT ?");
    const cases = [
      { name: "a last name", q: sample.lastName },
      { name: "a 3-letter prefix", q: sample.lastNamePrefix.slice(0, 3) },
      { name: "first name and last name prefix", q: `${_firstNameOf(hand, flock, sample.personIds[0]!)} ${sample.lastName.slice(0, 4)}` },
    ];
    for (const c of cases) {
      const match = searchTerms(c.q).map((t) => `"${t}"*`).join(" AND ");
      const ours = () => searchContacts(engine.context, flock, c.q, SEARCH_TYPES, 20);
      const baseline = () => bare.all(match, 100);
      const t = await timePair(ours, baseline, measureOptions(ctx.quick));
      out.push(searchRow(`search: ${c.name} (q=${JSON.stringify(c.q)})`, t, "bare FTS5 query", (await ours()).length));
    }
    return out;
  } finally {
    hand.close();
    await storage.close();
  }
}

function _firstNameOf(db: Database.Database, flock: string, id: string): string {
  const row = db
    .prepare("SELECT r.data FROM records r JOIN collections c ON c.cid = r.cid WHERE c.flock = ? AND r.id = ?")
    .get(flock, id) as { data: string } | undefined;
  const first = row ? (JSON.parse(row.data) as { first_name?: string }).first_name : undefined;
  return first ?? "a";
}
