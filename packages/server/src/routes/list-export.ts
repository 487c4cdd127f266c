/**
 * @module routes/list-export
 * `GET /api/v1/{flock}/{type}/export?format=csv|xlsx&columns=a,b&<list filters>`: every
 * record the same filters would list (all pages), streamed as a CSV or XLSX file through
 * the shared table writer, so the console's "Export" needs no spreadsheet code of its own.
 * Cells follow `import`'s conventions (bulk-io/record-table); `columns` picks and orders
 * the columns (envelope keys or data fields), default the envelope then the type's fields.
 */
import { badRequest, parseListQuery, PERSON_FIELDS } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { columnsOf, dataFieldsOf, ENVELOPE_COLUMNS, listAllSorted, scanAll, tableRow } from "../bulk-io/record-table.js";
import { TABLE_CONTENT_TYPE, tableStream } from "../exports/table-file.js";
import type { AppEnv } from "../http/env.js";
import { readQuery } from "../http/query.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { listQueryParams } from "../openapi/list-query.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The export's own parameters; every other one is a list filter, as on the list. */
const ExportQuery = v.object({
  format: v.picklist(["csv", "xlsx"], "must be csv or xlsx"),
  columns: v.optional(v.pipe(v.string(), v.maxLength(4000, "must be at most 4000 characters"))),
});

/** The most columns one export may name. */
const MAX_EXPORT_COLUMNS = 200;

/**
 * The export route (core keys of the flock). Mount before the generic record routes, so
 * `export` is not read as a record id.
 *
 * @example
 * const routes = listExportRoutes(engine, guards); route(app, "GET", "/api/v1/:flock/:type/export", routes.getTypeExport);
 */
export function listExportRoutes(engine: RouteEngine, guards: RouteGuards) {
  const { clock } = engine.context;

  return {
    getTypeExport: [describeGetTypeExport(), guards.requireKey(), guards.requireFlock, getTypeExport],
  } as const;

  function describeGetTypeExport(): MiddlewareHandler {
    return documented({
      tag: "records",
      summary: "Export the filtered list as a CSV or XLSX file",
      auth: "key",
      description:
        "Every record the list's filters match (paging ignored), in insertion order or the list's `sort`, streamed. Cells as `records-service import` reads them: a person's list fields joined by `;` (a JSON array when an entry holds a `;`), other values that are not text as JSON.",
      query: [
        queryParam("format", "csv or xlsx (required).", { type: "string", enum: ["csv", "xlsx"] }),
        queryParam("columns", `Comma-separated columns, in order: envelope keys (${ENVELOPE_COLUMNS.join(", ")}) or data fields; at most ${MAX_EXPORT_COLUMNS}. Default: the envelope, then the type's fields.`, { type: "string" }),
        ...listQueryParams("v1").filter((p) => !["page", "page_size", "limit"].includes(p.name)),
      ],
      ok: { status: 200, description: "the file (Content-Disposition: attachment)", media: [TABLE_CONTENT_TYPE.csv, TABLE_CONTENT_TYPE.xlsx] },
      errors: [400, 403, 404],
    });
  }

  async function getTypeExport(c: Context<AppEnv, "/:flock/:type/export">) {
    const { flock, type } = c.req.param();
    const own = readQuery(c, ExportQuery);
    const params = [...new URL(c.req.url).searchParams].filter(([k]) => !_OWN.includes(k));
    const query = parseListQuery(params, { surface: "v1", now: clock.now(), isKnownField: type === "person" ? _isPersonField : undefined });
    // The list's own checks (flock, type, filters) before the first byte is sent.
    await engine.list(flock, type, { ...query, page: 1, pageSize: 1 });
    const scan = { filters: query.filters, mode: query.mode, states: query.states };
    const fields = own.columns !== undefined ? _columns(own.columns, type) : [...ENVELOPE_COLUMNS, ...(await dataFieldsOf(engine.read, flock, type, scan))];
    const native = own.format === "xlsx";
    const rows = (async function* () {
      const records = query.sort ? listAllSorted(engine.read, flock, type, scan, query.sort) : scanAll(engine.read, flock, type, scan);
      for await (const r of records) yield tableRow(r, fields, native);
    })();
    const body = tableStream(own.format, columnsOf(fields), rows, type);
    return c.body(body, 200, {
      "Content-Type": TABLE_CONTENT_TYPE[own.format],
      "Content-Disposition": `attachment; filename="${_fileName(flock)}-${_fileName(type)}.${own.format}"`,
      "Cache-Control": "no-store",
    });
  }
}

// --- internal ---

const _OWN = ["format", "columns", "page", "page_size", "limit"];

function _isPersonField(field: string): boolean {
  return Object.hasOwn(PERSON_FIELDS, field);
}

/** The named columns: names as fields are written, no repeats, a person's known fields only. */
function _columns(text: string, type: string): string[] {
  const names = text.split(",").map((s) => s.trim());
  if (names.some((n) => !/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(n))) throw badRequest("invalid query parameter", "columns must be field names separated by commas");
  if (names.length > MAX_EXPORT_COLUMNS) throw badRequest("invalid query parameter", `columns names more than ${MAX_EXPORT_COLUMNS} columns`);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw badRequest("invalid query parameter", `columns names ${JSON.stringify(dup)} twice`);
  if (type === "person") {
    const unknown = names.find((n) => !(ENVELOPE_COLUMNS as readonly string[]).includes(n) && !_isPersonField(n));
    if (unknown !== undefined) throw badRequest("invalid query parameter", `columns: ${JSON.stringify(unknown)} is not a person field`);
  }
  return names;
}

/** A name safe inside the quoted filename (flock and type names are identifiers already). */
function _fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "_");
}
