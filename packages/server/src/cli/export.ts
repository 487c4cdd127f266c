/**
 * @module cli/export
 * `records-service export --flock ID [--type T] [--include-deleted] [--db PATH]`: the
 * flock's records as NDJSON on stdout (bulk-io/export-records), written with backpressure.
 */
import { once } from "node:events";
import { isRecordsError, type Storage } from "@records-service/core";
import { exportRecords } from "../bulk-io/export-records.js";
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
