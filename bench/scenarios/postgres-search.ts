/**
 * @module bench/scenarios/postgres-search
 * `--db postgres`: issue 14's search (bench/scenarios/search's questions) through the engine
 * over `createPostgresStorage`, against the bare GIN match of the same terms. Target: under
 * 20 ms at 100k persons. Medians in ms.
 */
import { createRecordEngine, searchContacts, SEARCH_TYPES, searchTerms } from "@records-service/core";
import { createPostgresStorage } from "@records-service/postgres";
import pg from "pg";
import { measureOptions, timePair } from "../lib/measure.js";
import { searchRow } from "./search.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The search scenario on PostgreSQL. */
export const scenarios: Scenario[] = [{ name: "search", group: "search", db: "postgres", run: (ctx) => _search(ctx) }];

// --- internal ---

async function _search(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx.postgres!;
  const storage = await createPostgresStorage({ url: dataset.url });
  const engine = createRecordEngine({ storage });
  const hand = new pg.Pool({ connectionString: dataset.url, max: 2 });
  const out: ScenarioResult[] = [];
  try {
    const { flock, sample } = dataset;
    const cases = [
      { name: "a last name", q: sample.lastName },
      { name: "a 3-letter prefix", q: sample.lastNamePrefix.slice(0, 3) },
    ];
    for (const c of cases) {
      const tsq = searchTerms(c.q).map((t) => `'${t}':*`).join(" & ");
      const ours = () => searchContacts(engine.context, flock, c.q, SEARCH_TYPES, 20);
      const baseline = () => hand.query("SELECT rid FROM record_search WHERE doc @@ $1::tsquery ORDER BY rid LIMIT 100", [tsq]);
      const t = await timePair(ours, baseline, measureOptions(ctx.quick));
      out.push(searchRow(`search (PostgreSQL): ${c.name} (q=${JSON.stringify(c.q)})`, t, "bare GIN match", (await ours()).length));
    }
    return out;
  } finally {
    await hand.end();
    await storage.close();
  }
}
