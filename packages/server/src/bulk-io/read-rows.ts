/**
 * @module bulk-io/read-rows
 * Turns an import's bytes into rows, each with the line it started on: NDJSON (one JSON
 * object a line; blank lines skipped) or CSV (a header row of field names, then one record
 * a row, quoted cells may span lines), parsed with csv-parse. A line that cannot be read
 * becomes a row with its `error`, so that it is reported and the rest goes on.
 *
 * CSV cells are text. They become the values a JSON body would hold: an empty cell is
 * left out; for a person, a list field's cell is its entries joined by `;` (or a JSON array,
 * for entries that hold a `;` themselves, such as a labelled email `"a@x.org;home"`),
 * a boolean field's `true`/`false` is the boolean, `geo` is JSON; for other types, a cell
 * that is a JSON number, boolean, array or object is that value, any other cell its text.
 */
import { PERSON_FIELDS } from "@records-service/core";
import { parse } from "csv-parse";

/** One row of an import: the line it starts on, and its value or why it cannot be read. */
export type ImportRow = { line: number; value: unknown; error?: undefined } | { line: number; error: string; value?: undefined };

/** The formats `import` reads. */
export type ImportFormat = "ndjson" | "csv";

/**
 * The format of a file: by its name (`.csv`, `.ndjson`/`.jsonl`/`.json`), else by its
 * first non-blank character (`{` is NDJSON, anything else a CSV header).
 */
export function detectFormat(name: string | undefined, head: string): ImportFormat {
  if (name && /\.csv$/i.test(name)) return "csv";
  if (name && /\.(nd)?jsonl?$/i.test(name)) return "ndjson";
  return head.trimStart().startsWith("{") ? "ndjson" : "csv";
}

/**
 * The rows of NDJSON text arriving in chunks.
 *
 * @example
 * for await (const row of readNdjson(createReadStream("people.ndjson"))) ...
 */
export async function* readNdjson(source: AsyncIterable<string | Buffer> | Iterable<string | Buffer>): AsyncGenerator<ImportRow> {
  const decoder = new TextDecoder("utf-8");
  let rest = "";
  let line = 0;
  const take = (text: string): ImportRow | undefined => {
    line += 1;
    const t = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (t.trim() === "") return undefined;
    try {
      return { line, value: JSON.parse(t) as unknown };
    } catch (e) {
      return { line, error: `not JSON: ${(e as Error).message}` };
    }
  };
  for await (const chunk of source) {
    rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let nl = rest.indexOf("\n");
    let from = 0;
    while (nl !== -1) {
      const row = take(rest.slice(from, nl));
      if (row) yield row;
      from = nl + 1;
      nl = rest.indexOf("\n", from);
    }
    rest = rest.slice(from);
  }
  rest += decoder.decode();
  if (rest !== "") {
    const row = take(rest);
    if (row) yield row;
  }
}

/**
 * The rows of CSV text arriving in chunks, as objects of `type`'s values (see the module
 * comment). A header naming a column twice, or a row with more or fewer cells than the
 * header, is reported on its line.
 */
export async function* readCsv(source: AsyncIterable<string | Buffer> | Iterable<string | Buffer>, type: string): AsyncGenerator<ImportRow> {
  // Empty lines come through as one empty cell and are skipped here, so that every line is counted.
  const parser = parse({ bom: true, relax_column_count: true });
  const feeding = (async () => {
    try {
      for await (const chunk of source) if (!parser.write(chunk)) await new Promise((r) => parser.once("drain", r));
      parser.end();
    } catch (e) {
      parser.destroy(e as Error);
    }
  })();
  let header: string[] | undefined;
  let next = 1; // the line the next record starts on
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = next;
      next += 1 + _lineBreaks(record);
      if (record.length === 1 && record[0] === "") continue;
      const item = { record };
      if (!header) {
        header = item.record.map((h) => h.trim());
        const dup = header.find((h, i) => header!.indexOf(h) !== i);
        if (dup !== undefined) throw new CsvHeaderError(`CSV header names column ${JSON.stringify(dup)} twice`);
        if (header.some((h) => h === "")) throw new CsvHeaderError("CSV header has an empty column name");
        continue;
      }
      if (item.record.length !== header.length) {
        yield { line, error: `${item.record.length} cells where the header has ${header.length}` };
        continue;
      }
      const row: Record<string, unknown> = {};
      let error: string | undefined;
      for (let i = 0; i < header.length; i++) {
        const cell = item.record[i]!;
        if (cell === "") continue;
        const value = cellValue(type, header[i]!, cell);
        if (value instanceof Error) {
          error = value.message;
          break;
        }
        row[header[i]!] = value;
      }
      yield error === undefined ? { line, value: row } : { line, error };
    }
  } catch (e) {
    if (e instanceof CsvHeaderError) throw e;
    // csv-parse stops at the first malformed row (an unclosed quote): report it, stop.
    yield { line: next, error: `not CSV: ${(e as Error).message}` };
  } finally {
    await feeding;
  }
}

/** A CSV whose header cannot be used: nothing of the file can be read. */
export class CsvHeaderError extends Error {
  override readonly name = "CsvHeaderError";
}

/** The value of one non-empty CSV cell of `field`, or an Error naming what is wrong with it. */
function cellValue(type: string, field: string, cell: string): unknown {
  if (_ENVELOPE_TEXT.has(field)) return cell;
  if (field === "version") return /^\d+$/.test(cell) ? Number(cell) : cell;
  if (type !== "person") return _jsonOrText(cell);
  const kind = PERSON_FIELDS[field];
  if (kind === "list") {
    if (cell.trimStart().startsWith("[")) {
      const v = _json(cell);
      return Array.isArray(v) ? v : new Error(`${field}: a list cell that starts with [ must be a JSON array`);
    }
    return cell.split(";").map((s) => s.trim()).filter((s) => s !== "");
  }
  if (kind === "boolean" || kind === "flag") {
    const t = cell.trim().toLowerCase();
    if (t === "true") return true;
    if (t === "false") return false;
    return new Error(`${field}: expected true or false, not ${JSON.stringify(cell.slice(0, 40))}`);
  }
  if (kind === "json") {
    const v = _json(cell);
    return v === undefined ? new Error(`${field}: expected JSON`) : v;
  }
  return cell;
}

// --- internal ---

const _ENVELOPE_TEXT = new Set(["type", "id", "state", "created", "last_updated"]);

/** Line breaks inside the record's (quoted) cells. */
function _lineBreaks(record: readonly string[]): number {
  let n = 0;
  for (const cell of record) for (let i = cell.indexOf("\n"); i !== -1; i = cell.indexOf("\n", i + 1)) n += 1;
  return n;
}

function _json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON numbers, booleans, arrays and objects as such; any other text as text (a leading zero keeps "01234" text). */
function _jsonOrText(cell: string): unknown {
  const c = cell.trim();
  if (!/^(-?\d|\[|\{|true$|false$)/.test(c)) return cell;
  const v = _json(c);
  return v === undefined || v === null || typeof v === "string" ? cell : v;
}
