/**
 * @module gateway/segments/export-task
 * The `segment_export` task (spec v2-gateway 7, `all/xlsx` and `all/excel`): writes a
 * segment's members as an XLSX file (exceljs's streaming writer, through `tableBuffer`) and
 * attaches it to the `journal` record the request made, marking the journal `complete`. The
 * file and the journal's update are committed with the task's last chunk, in one change set:
 * the journal holds the file exactly when the task says complete. Members are read a step at
 * a time; only the compressed file grows in memory.
 */
import {
  badRequest,
  fileUrl,
  formatTimestamp,
  notFound,
  parseRecordUri,
  planUpdate,
  updateWrite,
  type EngineContext,
  type StoredFile,
  type StoredRecord,
  type TaskKind,
} from "@records-service/core";
import { tableBuffer, TABLE_CONTENT_TYPE, type TableCell, type TableColumn } from "../../exports/table-file.js";
import { uriOf } from "../read-all.js";
import { segmentWalk, taskReader, walkMembers } from "./walk.js";

/** The task kind's name. */
export const SEGMENT_EXPORT_TASK = "segment_export";

/** The journal field the file's URL is added to (the spec's file field on journals). */
const REPORT_FILE_FIELD = "files";

/** The stored parameters of a `segment_export` task. */
interface SegmentExportParams {
  /** The segment's URI. */
  uri: string;
  /** The journal record's URI the file goes to. */
  journal_uri: string;
  /** The columns, resolved when the export was asked for. */
  columns: TableColumn[];
}

/** `segment_export`: one chunk reads every member and stores the file. */
export const segmentExportTask: TaskKind = {
  name: SEGMENT_EXPORT_TASK,

  async prepare(ctx, flock, raw) {
    const p = checkExportParams(raw);
    segmentWalk(taskReader(ctx), await _live(ctx, flock, p.uri, "segment"));
    await _live(ctx, flock, p.journal_uri, "journal");
    return { ...p };
  },

  async step(ctx, task) {
    const p = checkExportParams(task.params);
    const journal = await _live(ctx, task.flock, p.journal_uri, "journal");
    const now = formatTimestamp(ctx.clock.now());
    const finish = (patch: Record<string, unknown>) => updateWrite(journal, planUpdate(journal, patch, now).next);
    let segment: StoredRecord;
    let walk: ReturnType<typeof segmentWalk>;
    try {
      segment = await _live(ctx, task.flock, p.uri, "segment");
      walk = segmentWalk(taskReader(ctx), segment);
    } catch (e) {
      // The segment went or its rules broke since the request: the journal says so.
      const why = e instanceof Error && "detail" in e ? String((e as { detail: unknown }).detail) : String(e);
      return { writes: [finish({ status: "failed", error: why })], cursor: null, done: true, counts: { matched: 0, changed: 1, unchanged: 0, errors: 1 }, errors: [why] };
    }
    let n = 0;
    const rows = async function* () {
      for await (const r of walkMembers(taskReader(ctx), walk)) {
        n += 1;
        yield memberRow(r, p.columns);
      }
    };
    const bytes = await tableBuffer("xlsx", p.columns, rows(), "Members");
    const file: StoredFile = {
      id: ctx.ids(),
      flock: task.flock,
      recordType: journal.type,
      recordId: journal.id,
      field: REPORT_FILE_FIELD,
      filename: `segment-${segment.id}.xlsx`,
      contentType: TABLE_CONTENT_TYPE.xlsx,
      bytes: new Uint8Array(bytes),
      created: now,
    };
    const url = fileUrl(task.flock, file.id, file.filename);
    const before = Array.isArray(journal.data[REPORT_FILE_FIELD]) ? (journal.data[REPORT_FILE_FIELD] as unknown[]) : [];
    return {
      writes: [finish({ status: "complete", rows: n, [REPORT_FILE_FIELD]: [...before, url] })],
      files: [file],
      cursor: null,
      done: true,
      counts: { matched: n, changed: 1, unchanged: 0, errors: 0 },
    };
  },
};

/**
 * One member as a row of `columns`: `display_value` and `uri` from the record, other fields
 * from its data; lists joined with `, `, references as their display value or URI.
 */
export function memberRow(r: StoredRecord, columns: readonly TableColumn[]): Record<string, TableCell> {
  const row: Record<string, TableCell> = {};
  for (const { field } of columns) {
    row[field] = field === "display_value" ? r.displayValue : field === "uri" ? uriOf(r) : _cell(r.data[field]);
  }
  return row;
}

/** The parameters checked: two URIs and at least one `{field, label}` column. */
function checkExportParams(raw: Record<string, unknown>): SegmentExportParams {
  const { uri, journal_uri: journal, columns } = raw;
  if (typeof uri !== "string" || typeof journal !== "string") throw badRequest("invalid task parameters", "uri and journal_uri must be record URIs");
  const ok = Array.isArray(columns) && columns.length > 0 && columns.every((c) => typeof c === "object" && c !== null && typeof c.field === "string" && typeof c.label === "string");
  if (!ok) throw badRequest("invalid task parameters", "columns must be a non-empty list of {field, label}");
  return { uri, journal_uri: journal, columns: (columns as TableColumn[]).map((c) => ({ field: c.field, label: c.label })) };
}

// --- internal ---

async function _live(ctx: EngineContext, flock: string, uri: string, type: string): Promise<StoredRecord> {
  const key = parseRecordUri(uri);
  const r = key && key.flock === flock && key.type === type ? await taskReader(ctx).read.getRecord(flock, type, key.id) : undefined;
  if (!r || r.state === "deleted") throw notFound("not found", `no ${type} ${uri} in flock ${flock}`);
  return r;
}

function _cell(v: unknown): TableCell {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map((x) => _text(x)).filter((s) => s !== "").join(", ");
  return _text(v);
}

function _text(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
  const o = v as Record<string, unknown>;
  for (const key of ["display_value", "ref", "value", "address"]) if (typeof o[key] === "string") return o[key] as string;
  return JSON.stringify(v);
}
