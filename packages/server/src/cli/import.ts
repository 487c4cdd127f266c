/**
 * @module cli/import
 * `records-service import FILE|- --flock ID [--type T] [--events|--no-events] [--update]
 * [--db PATH] [--config FILE] [--batch N]`: reads NDJSON or CSV (bulk-io/read-rows) into a
 * flock through `importRecords`, with a progress bar on stderr (cli-progress: rows, rate,
 * and for a file the share read and the time left), every refused row on stderr with its
 * line, and the counts on stdout. Exit 1 when any row was refused.
 */
import { createReadStream, statSync } from "node:fs";
import { createRecordEngine, isRecordsError, systemAttribution, systemClock, type Storage, type TriggerConfig } from "@records-service/core";
import cliProgress from "cli-progress";
import { importRecords } from "../bulk-io/import-records.js";
import { CsvHeaderError, detectFormat, readCsv, readNdjson } from "../bulk-io/read-rows.js";
import { loadConfig } from "../config.js";
import { readAppliedConfig, storedConfigToConfig } from "../config/stored.js";
import { triggerProvider } from "../runtime/triggers.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Runs the import; resolves with the exit code. */
export async function runImport(cmd: Extract<Command, { kind: "import" }>, io: CliIo): Promise<number> {
  const fileTriggers = cmd.events && cmd.config !== undefined ? loadConfig(cmd.config).triggers : undefined;
  const fromStdin = cmd.file === "-";
  if (fromStdin && !io.stdin) throw new Error("import -: no stdin to read");
  const size = fromStdin ? undefined : statSync(cmd.file).size; // a missing file fails here, before the database opens
  return withExistingStorage(cmd.db, async (storage) => {
    // The triggers in force: the --config file's, else the configuration applied to the database.
    const triggers = cmd.events ? (fileTriggers ?? (await _appliedTriggers(storage))) : [];
    // The command has no account: the change log names its writes by the marker system:import.
    const engine = createRecordEngine({ storage, clock: systemClock, triggers: triggerProvider(triggers) }).withAttribution(systemAttribution("import"));
    const counted = _counting(fromStdin ? io.stdin! : createReadStream(cmd.file));
    const { head, chunks } = await _peek(counted.chunks);
    const format = detectFormat(fromStdin ? undefined : cmd.file, head);
    const rows = format === "csv" ? readCsv(chunks, cmd.type ?? "person") : readNdjson(chunks);
    const progress = _progressBar(io, size);
    const started = performance.now();
    let report;
    try {
      report = await importRecords(engine, cmd.flock, rows, {
        ...(cmd.type ? { type: cmd.type } : {}),
        events: cmd.events,
        update: cmd.update,
        batchSize: cmd.batchSize,
        onProgress: (p) => progress.update(counted.bytes(), p.read, (performance.now() - started) / 1000),
        onRefused: (line, reason) => progress.log(`line ${line}: ${reason}`),
      });
    } catch (e) {
      if (e instanceof CsvHeaderError) throw new Error(`${cmd.file}: ${e.message}`);
      if (isRecordsError(e)) throw new Error(e.detail); // "flock 'x' does not exist"
      throw e;
    } finally {
      progress.stop();
    }
    // One line per flock and event: recorded, but nothing will be delivered for it.
    for (const [name, n] of Object.entries(report.unqueued)) {
      io.err(
        `import: warning: flock ${cmd.flock} has no active trigger for ${name}: ${n} ${name} event(s) recorded, no action queued ` +
          `(triggers come from ${cmd.config ?? "the configuration applied to the database; see records-service config show"})`,
      );
    }
    const seconds = (performance.now() - started) / 1000;
    io.out(
      `${report.created} created, ${report.updated} updated, ${report.skipped} skipped (already stored${cmd.update ? ", unchanged" : ""}), ` +
        `${report.refused} refused; ${report.read} rows (${format}) in ${seconds.toFixed(1)} s`,
    );
    return report.refused > 0 ? EXIT_FAILED : EXIT_OK;
  });
}

// --- internal ---

async function _appliedTriggers(storage: Storage): Promise<readonly TriggerConfig[]> {
  const stored = await readAppliedConfig(storage);
  return stored ? storedConfigToConfig(stored).triggers : [];
}

interface _Progress {
  update(bytes: number, rows: number, seconds: number): void;
  log(line: string): void;
  stop(): void;
}

/**
 * A bar of the bytes read (a file: share, eta) or a counter (stdin), with rows and rows/s;
 * off a terminal it prints a line a second instead of redrawing.
 */
function _progressBar(io: CliIo, size: number | undefined): _Progress {
  const stream = io.stderr;
  if (!stream) return { update: () => {}, log: (line) => io.err(line), stop: () => {} };
  const known = size !== undefined && size > 0;
  const multi = new cliProgress.MultiBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: known ? "importing [{bar}] {percentage}% | {rows} rows | {rate} rows/s | eta {eta_formatted}" : "importing {rows} rows | {rate} rows/s",
      hideCursor: false,
      noTTYOutput: true,
      notTTYSchedule: 1000,
      etaBuffer: 50,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const bar = multi.create(known ? size : 1, 0, { rows: 0, rate: 0 });
  return {
    update: (bytes, rows, seconds) => bar.update(known ? bytes : 0, { rows, rate: seconds > 0 ? Math.round(rows / seconds) : 0 }),
    // On a terminal the line goes above the bar; elsewhere straight to stderr (cli-progress
    // holds logs for its next redraw, which a piped stderr may never get).
    log: (line) => ((stream as NodeJS.WriteStream).isTTY ? multi.log(`${line}\n`) : io.err(line)),
    stop: () => multi.stop(),
  };
}

/** The chunks of `source`, counting the bytes that went by. */
function _counting(source: AsyncIterable<string | Buffer>): { chunks: AsyncIterable<string | Buffer>; bytes(): number } {
  let bytes = 0;
  return {
    chunks: (async function* () {
      for await (const chunk of source) {
        bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
        yield chunk;
      }
    })(),
    bytes: () => bytes,
  };
}

/** The start of `source` as text (for the format), and the whole of it still to read. */
async function _peek(source: AsyncIterable<string | Buffer>): Promise<{ head: string; chunks: AsyncIterable<string | Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  const head = first.done ? "" : String(first.value).slice(0, 64);
  return {
    head,
    chunks: (async function* () {
      if (!first.done) yield first.value;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    })(),
  };
}
