/**
 * @module cli/indexes
 * `records-service indexes [--db PATH] [--flock F] [--add|--drop|--reset TYPE.FIELD]`: the
 * value index's registry for operators. Without a change it lists each field's index per
 * flock (every flock without --flock): type, field, status (declared, earned, building n%,
 * dropped), source, and `*` in the flock column for a row that holds for every flock (the
 * config's; printed once). A change asks the engine (the checks the HTTP routes get) and
 * prints the field's new line; the serving processes do the back-fill.
 */
import { createRecordEngine, EVERY_FLOCK, isRecordsError, type FieldIndexView, type RecordEngine, type Storage } from "@records-service/core";
import { flockResourceTypes } from "../config.js";
import { readAppliedConfig, storedConfigToConfig } from "../config/stored.js";
import type { Command, IndexChange } from "./args.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Lists, or applies the change and prints the field's line; a refusal exits 1 through main with the service's words. */
export async function runIndexes(cmd: Extract<Command, { kind: "indexes" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    const engine = await _engine(storage);
    try {
      const lines = cmd.change ? await _change(engine, cmd.flock!, cmd.change) : await _list(engine, storage, cmd.flock);
      for (const line of lines) io.out(line);
    } catch (e) {
      // "index needed: the service looks up 'tags' itself: ..."; "unknown flock: ..."
      if (isRecordsError(e)) throw new Error(e.detail ? `${e.message}: ${e.detail}` : e.message);
      throw e;
    }
    return EXIT_OK;
  });
}

/** One listed row: the flock it was listed for (or `*`) and the field's view. */
export interface IndexLine {
  flock: string;
  view: FieldIndexView;
}

/**
 * The table: a header, then one row per field. The status of a field being built shows how
 * far it is (`building 42%`), that of a dropped field whose entries are still being removed
 * too (`dropped, 40% removed`).
 *
 * @example
 * formatIndexes([{ flock: "demo", view: { type: "person", field: "shoe_size", status: "building", source: "operator", flock: "demo", progress: 0.42 } }])
 * // ["FLOCK  TYPE    FIELD      STATUS        SOURCE", "demo   person  shoe_size  building 42%  operator"]
 */
export function formatIndexes(lines: readonly IndexLine[]): string[] {
  const header = ["FLOCK", "TYPE", "FIELD", "STATUS", "SOURCE"];
  const rows = lines.map(({ flock, view }) => [flock, view.type, view.field, statusText(view), view.source]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * A field's status in words; progress as a whole percentage rounded down, so 100% only once
 * the work is done.
 *
 * @example
 * statusText({ status: "building", progress: 0.999 }) // "building 99%"
 */
export function statusText(view: Pick<FieldIndexView, "status" | "progress">): string {
  const pct = `${Math.floor(Math.min(1, Math.max(0, view.progress)) * 100)}%`;
  if (view.status === "building") return `building ${pct}`;
  if (view.status === "dropped" && view.progress < 1) return `dropped, ${pct} removed`;
  return view.status;
}

/**
 * The rows of the flocks listed: each flock's views in the engine's order; a row that holds
 * for every flock is shown once, with flock `*`, where it first appears.
 */
export function indexLines(byFlock: readonly { flock: string; views: readonly FieldIndexView[] }[]): IndexLine[] {
  const seen = new Set<string>();
  const out: IndexLine[] = [];
  for (const { flock, views } of byFlock) {
    for (const view of views) {
      if (view.flock === EVERY_FLOCK) {
        const key = `${view.type}\u0000${view.field}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ flock: EVERY_FLOCK, view });
      } else out.push({ flock, view });
    }
  }
  return out;
}

// --- internal ---

/** The engine as `serve` builds it for this database: the applied config's extra types per flock. */
async function _engine(storage: Storage): Promise<RecordEngine> {
  const stored = await readAppliedConfig(storage);
  const extra = stored ? flockResourceTypes(storedConfigToConfig(stored)) : {};
  return createRecordEngine({ storage, flockResourceTypes: extra });
}

async function _list(engine: RecordEngine, storage: Storage, flock: string | undefined): Promise<string[]> {
  const flocks = flock !== undefined ? [flock] : (await storage.listFlocks()).map((f) => f.identifier);
  if (flocks.length === 0) return ["no flocks"];
  const byFlock = [];
  for (const f of flocks) byFlock.push({ flock: f, views: await engine.indexes.list(f) });
  return formatIndexes(indexLines(byFlock));
}

async function _change(engine: RecordEngine, flock: string, change: IndexChange): Promise<string[]> {
  const { type, field } = change;
  if (change.op === "add") return formatIndexes([_line(flock, await engine.indexes.add(flock, type, field))]);
  if (change.op === "drop") return formatIndexes([_line(flock, await engine.indexes.drop(flock, type, field))]);
  const hadRow = await engine.indexes.reset(flock, type, field);
  const note = hadRow ? [] : [`${type}.${field} had no row of its own in ${flock}: nothing changed`];
  const view = (await engine.indexes.list(flock)).find((v) => v.type === type && v.field === field);
  if (!view) return [...note, `${type}.${field} in ${flock}: not indexed (the defaults do not index it; filters on it scan the records)`];
  return [...note, ...formatIndexes([_line(flock, view)])];
}

function _line(flock: string, view: FieldIndexView): IndexLine {
  return { flock: view.flock === EVERY_FLOCK ? EVERY_FLOCK : flock, view };
}
