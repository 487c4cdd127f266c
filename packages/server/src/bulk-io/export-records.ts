/**
 * @module bulk-io/export-records
 * `exportRecords`: the records of a flock as export lines (bulk-io/envelope-line), type by
 * type in name order, each type's records in insertion order, read a step at a time
 * (`scanRecords`), so a flock of any size streams in bounded memory. Without a type, every
 * type clients write is exported; the service's own log (data events, tasks) only when
 * asked for by name: an import writes its own.
 */
import { notFound, type RecordState, type Storage } from "@records-service/core";
import { SERVICE_WRITTEN_TYPES } from "../routes/records.js";
import { envelopeLine } from "./envelope-line.js";

/** Options of `exportRecords`. */
export interface ExportOptions {
  /** Only this type (any type, the service's own too). Default: every type clients write. */
  type?: string;
  /** Deleted records too. Default false. */
  includeDeleted?: boolean;
  /** Records read per step. Default 1000. */
  stepSize?: number;
}

/**
 * The export lines (without newlines) of `flock`. Throws 404 for an unknown flock.
 *
 * @example
 * for await (const line of exportRecords(storage, "demo")) process.stdout.write(`${line}\n`);
 */
export async function* exportRecords(storage: Storage, flock: string, opts: ExportOptions = {}): AsyncGenerator<string> {
  if (!(await storage.getFlock(flock))) throw notFound("unknown flock", `flock '${flock}' does not exist`);
  const states: RecordState[] = opts.includeDeleted ? ["updated", "deleted"] : ["updated"];
  const types = opts.type !== undefined ? [opts.type] : (await storage.summarizeTypes(flock)).map((t) => t.name).filter((t) => !SERVICE_WRITTEN_TYPES.includes(t));
  const step = Math.max(1, Math.floor(opts.stepSize ?? 1000));
  for (const type of types) {
    let after: string | null = null;
    do {
      const page = await storage.scanRecords(flock, type, { filters: [], mode: "AND", states }, after, step);
      for (const r of page.records) yield envelopeLine(r);
      after = page.cursor;
    } while (after !== null);
  }
}
