/**
 * @module examples/in-process
 * Records Service as a library, without HTTP: an in-memory SQLite database, the record
 * engine, a flock, and the record life cycle (create, list with filters, update, delete,
 * restore). Run it with:
 *
 *   node --conditions=source --import tsx examples/in-process.ts
 *
 * Swap `createSqliteStorage({ path: ":memory:" })` for `{ path: "./data/records.db" }` to
 * keep the data, or for core's `createMemoryStorage()` in unit tests.
 */
import { pathToFileURL } from "node:url";
import { createRecordEngine, formatTimestamp, parseListQuery, systemClock, type RecordEngine } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";

/** What the example found, so its test can check it. */
export interface ExampleResult {
  /** formatted_name of the VIPs created this month, in creation order. */
  vips: string[];
  /** What the update changed (the field given and the names derived from it). */
  changed: Record<string, unknown>;
  /** Persons listed by default, after one was deleted. */
  listedAfterDelete: number;
  /** Persons listed with include_deleted=Y. */
  listedWithDeleted: number;
  /** State of the deleted person after restore. */
  stateAfterRestore: string;
  /** Persons whose last name is Babbage or Lovelace (mode=OR), after the restore. */
  either: string[];
}

/**
 * Runs the example; `print` receives each line it would show.
 *
 * @example
 * const result = await main(() => {}); result.vips; // ["Ada Lovelace", "Mary Somerville"]
 */
export async function main(print: (line: string) => void = console.log): Promise<ExampleResult> {
  const storage = createSqliteStorage({ path: ":memory:" });
  try {
    await storage.createFlock({ identifier: "demo", name: "Demo", created: formatTimestamp(systemClock.now()) });
    const engine = createRecordEngine({ storage });

    const ada = await engine.create("demo", "person", {
      first_name: "Ada",
      last_name: "Lovelace",
      email: ["ada@example.org;home"],
      tags: ["vip"],
    });
    const charles = await engine.create("demo", "person", { first_name: "Charles", last_name: "Babbage" });
    await engine.create("demo", "person", { first_name: "Mary", last_name: "Somerville", tags: ["vip", "author"] });
    print(`created ${ada.displayValue} (${ada.id}), ${charles.displayValue} and Mary Somerville`);

    // The same query language as the HTTP API: parameters in, a query tree out.
    const vips = await _list(engine, "tags=vip&created__gte=last month");
    print(`VIPs created since last month: ${vips.join(", ")}`);

    const { changed } = await engine.update("demo", "person", ada.id, { known_as: "Countess of Lovelace", title: "Countess" });
    print(`update changed: ${Object.keys(changed).join(", ")}`);

    await engine.delete("demo", "person", charles.id);
    const listedAfterDelete = (await _list(engine, "")).length;
    const listedWithDeleted = (await _list(engine, "include_deleted=Y")).length;
    print(`after delete: ${listedAfterDelete} listed, ${listedWithDeleted} with include_deleted=Y`);

    const restored = await engine.restore("demo", "person", charles.id);
    const either = await _list(engine, "mode=OR&last_name=Babbage&last_name=Lovelace");
    print(`after restore: ${restored.displayValue} is ${restored.state}; Babbage or Lovelace: ${either.join(", ")}`);

    return { vips, changed, listedAfterDelete, listedWithDeleted, stateAfterRestore: restored.state, either };
  } finally {
    await storage.close();
  }
}

// --- internal ---

/** Lists the demo flock's persons matching `params`, as their display values. */
async function _list(engine: RecordEngine, params: string): Promise<string[]> {
  const query = parseListQuery(new URLSearchParams(params), { surface: "v2", now: engine.context.clock.now() });
  const page = await engine.list("demo", "person", query);
  return page.records.map((r) => r.displayValue);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
