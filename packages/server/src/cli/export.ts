/**
 * @module cli/export
 * `records-service export --flock ID [--type T] [--include-deleted] [--format ndjson|csv]
 * [--db PATH]`: the flock's records as NDJSON on stdout (bulk-io/export-records), or one
 * type as CSV (bulk-io/record-table through the shared table writer), written with
 * backpressure.
 */
import { once } from "node:events";
import { isRecordsError, notFound, type ScanQuery, type Storage } from "@records-service/core";
import { exportRecords } from "../bulk-io/export-records.js";
import { columnsOf, dataFieldsOf, ENVELOPE_COLUMNS, scanAll, tableRow } from "../bulk-io/record-table.js";
import { tableStream } from "../exports/table-file.js";
import type { Command } from "./args.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Writes the export; exit 1 (through main) for an unknown flock or a missing database. */
export async function runExport(cmd: Extract<Command, { kind: "export" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    try {
      return await _write(storage, cmd, io);
    } catch (e) {
      if (isRecordsError(e)) throw new Error(e.detail); // "flock 'x' does not exist"
      throw e;
    }
  });
}

// --- internal ---

/** Streams the lines to stdout (or line by line through `io.out` where there is no stream). */
async function _write(storage: Storage, cmd: Extract<Command, { kind: "export" }>, io: CliIo): Promise<number> {
  if (cmd.format === "csv") return _writeCsv(storage, cmd, io);
  const lines = exportRecords(storage, cmd.flock, { ...(cmd.type ? { type: cmd.type } : {}), includeDeleted: cmd.includeDeleted });
  const out = io.stdout;
  if (!out) {
    for await (const line of lines) io.out(line);
    return EXIT_OK;
  }
  // Lines are gathered into chunks of about 64 KiB: one write per chunk, waiting when the pipe is full.
  let chunk = "";
  for await (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length >= 65_536) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  if (chunk && !out.write(chunk)) await once(out, "drain");
  return EXIT_OK;
}

/** One type as CSV: its columns (a first walk for a type without a schema), then its rows. */
async function _writeCsv(storage: Storage, cmd: Extract<Command, { kind: "export" }>, io: CliIo): Promise<number> {
  const type = cmd.type!;
  if (!(await storage.getFlock(cmd.flock))) throw notFound("unknown flock", `flock '${cmd.flock}' does not exist`);
  const scan: ScanQuery = { filters: [], mode: "AND", states: cmd.includeDeleted ? ["updated", "deleted"] : ["updated"] };
  const fields = [...ENVELOPE_COLUMNS, ...(await dataFieldsOf(storage, cmd.flock, type, scan))];
  const rows = (async function* () {
    for await (const r of scanAll(storage, cmd.flock, type, scan)) yield tableRow(r, fields);
  })();
  const reader = tableStream("csv", columnsOf(fields), rows).getReader();
  const decoder = new TextDecoder();
  const out = io.stdout;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!out) text += decoder.decode(value, { stream: true });
    else if (!out.write(value)) await once(out, "drain");
  }
  // Without a stream (in-process callers), the file in one piece: cells may hold line breaks.
  if (!out) io.out(text.replace(/\r?\n$/, ""));
  return EXIT_OK;
}
