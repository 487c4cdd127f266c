/**
 * @module exports/table-file
 * A table (columns, then rows read one at a time) written as CSV or XLSX and streamed, so an
 * export of any size holds one row in memory at a time. CSV goes through csv-stringify (the
 * sibling of the csv-parse that import uses); XLSX through exceljs's streaming writer.
 */
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';

/** One column of an exported table: the row key it reads and the header it shows. */
export interface TableColumn {
  readonly field: string;
  readonly label: string;
}

/** A cell's value: text, a number, a boolean, a date or nothing. */
export type TableCell = string | number | boolean | Date | null | undefined;

export type TableFormat = 'csv' | 'xlsx';

export const TABLE_CONTENT_TYPE: Readonly<Record<TableFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Streams `rows` as a table file. Rows are pulled only as fast as the reader takes bytes.
 * @example
 * const body = tableStream('csv', [{ field: 'name', label: 'Name' }], rowsOf(records));
 * return new Response(body, { headers: { 'content-type': TABLE_CONTENT_TYPE.csv } });
 */
export function tableStream(
  format: TableFormat,
  columns: readonly TableColumn[],
  rows: AsyncIterable<Readonly<Record<string, TableCell>>>,
  sheetName = 'Sheet1',
): ReadableStream<Uint8Array> {
  const node = format === 'csv' ? _csv(columns, rows) : _xlsx(columns, rows, sheetName);
  return Readable.toWeb(node) as ReadableStream<Uint8Array>;
}

/** Collects a table file into one buffer (for a task that stores the file as a record). */
export async function tableBuffer(
  format: TableFormat,
  columns: readonly TableColumn[],
  rows: AsyncIterable<Readonly<Record<string, TableCell>>>,
  sheetName?: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const reader = tableStream(format, columns, rows, sheetName).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

// --- internal ---

/** Rows written between turns of the event loop (see `_xlsx`). */
const _YIELD_EVERY_ROWS = 50;

function _csv(
  columns: readonly TableColumn[],
  rows: AsyncIterable<Readonly<Record<string, TableCell>>>,
): Readable {
  const out = stringify({
    header: true,
    columns: columns.map((c) => ({ key: c.field, header: c.label })),
    cast: { date: (d) => d.toISOString(), boolean: (b) => (b ? 'true' : 'false') },
  });
  // Readable.from pulls the rows lazily; pipe applies the stringifier's back-pressure.
  Readable.from(_cells(columns, rows)).on('error', (e) => out.destroy(e)).pipe(out);
  return out;
}

function _xlsx(
  columns: readonly TableColumn[],
  rows: AsyncIterable<Readonly<Record<string, TableCell>>>,
  sheetName: string,
): Readable {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  sheet.columns = columns.map((c) => ({ header: c.label, key: c.field }));
  void (async () => {
    let n = 0;
    for await (const row of _cells(columns, rows)) {
      sheet.addRow(row).commit();
      // The zip deflates on the thread pool and hands its output on in I/O callbacks: a row
      // source that only awaits promises (a synchronous database driver) would never let them
      // run, so the whole file would pile up inside the zip before its first byte left.
      if (++n % _YIELD_EVERY_ROWS === 0) await new Promise((r) => setImmediate(r));
      // Wait for the zip when the sheet's rows wait for it, and for the reader when the
      // output is full: memory stays flat however long the table.
      for (const input of _sheetInputs(sheet)) if (input._writableState.needDrain) await new Promise<void>((r) => input.once('drain', () => r()));
      if (out.writableNeedDrain) await new Promise((r) => out.once('drain', r));
    }
    sheet.commit();
    await book.commit();
  })().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  return out;
}

/**
 * The streams the zip reads a sheet's XML from. exceljs's sheet stream hands its data on
 * without waiting (it ignores what `write` returns), so the rows would pile up there
 * whenever they come faster than the zip deflates; its consumers' own buffers say when
 * to wait. Not part of exceljs's typed interface: when its internals differ, nothing is
 * found and only the event-loop turns above pace the writer.
 */
function _sheetInputs(sheet: object): _ZipInput[] {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  return Array.isArray(pipes) ? pipes.filter(_isZipInput) : [];
}

/** A writable stream of the zip's own stream library (not Node's class, so by its shape). */
interface _ZipInput {
  _writableState: { needDrain: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

function _isZipInput(p: unknown): p is _ZipInput {
  const state = (p as { _writableState?: { needDrain?: unknown } } | null)?._writableState;
  return typeof state?.needDrain === 'boolean' && typeof (p as { once?: unknown }).once === 'function';
}

async function* _cells(
  columns: readonly TableColumn[],
  rows: AsyncIterable<Readonly<Record<string, TableCell>>>,
): AsyncGenerator<Record<string, TableCell>> {
  for await (const row of rows) {
    const cells: Record<string, TableCell> = {};
    for (const c of columns) cells[c.field] = row[c.field] ?? null;
    yield cells;
  }
}
