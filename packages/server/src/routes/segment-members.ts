/**
 * @module routes/segment-members
 * The segments gateway's paths over one segment's members (spec v2-gateway section 7),
 * served under `/segments/v2` (routes/bind-segments). Core keys of the flock only; an unknown,
 * deleted or non-segment `{uid}` is a 404, a rule the filter code refuses a 400 naming it.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock/segment/:uid/config` | how a client shows the members (mapping, field list) |
 * | GET | `/:flock/segment/:uid/lookup?q=&limit=` | up to `limit` members whose display value holds `q` |
 * | GET | `/:flock/segment/:uid/all?q=&page=&page_size=&verbose=` | the list wrapper over the members |
 * | GET | `/:flock/segment/:uid/all/xlsx` (and `/all/excel`) | queues the XLSX export into a journal; the receipt |
 * | GET | `/:flock/segment/:uid/all/csv` | the members as CSV, streamed (ours: issue 21 asks for CSV beside XLSX) |
 * | POST | `/:flock/segment/:uid/action/delete` | queues deleting the members; the task's URI |
 * | GET, POST | `.../all/pdf`, `.../all/sync_mailchimp`, `.../action/replace` | 501: not offered |
 */
import { badRequest, listAnswerText, recordUri, toListElement, type StoredRecord } from "@records-service/core";
import type { Context } from "hono";
import { segmentConfig } from "../gateway/segments/config.js";
import { checkDeleteParams, DELETE_BATCH, SEGMENT_DELETE_TASK } from "../gateway/segments/delete-task.js";
import { memberRow, SEGMENT_EXPORT_TASK } from "../gateway/segments/export-task.js";
import { tableStream, TABLE_CONTENT_TYPE, type TableColumn } from "../exports/table-file.js";
import { typeFields, fieldLabel } from "../gateway/segments/fields.js";
import { fieldsOf, templateFieldset } from "../gateway/segments/fieldsets.js";
import { displayContains, segmentWalk, walkMembers, walkStep } from "../gateway/segments/walk.js";
import { countSegment } from "../gateway/segments/members.js";
import { pageInfo, readGatewayParams, readPaging, type GatewayParams } from "../gateway/params.js";
import { uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import { booleanParam } from "../gateway/values.js";
import { actingEngine, type TaskQueue } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { notOffered } from "./not-offered.js";
import { documented, queryParam } from "../openapi/describe.js";
import { serverTaskRegistry } from "../workers/task-kinds.js";
import type { RouteEngine } from "../http/route-engine.js";

/** `page_size` of a segment's members when none is given. */
const MEMBERS_DEFAULT_PAGE_SIZE = 25;

/** `limit` of `lookup`: default and most. */
const LOOKUP_LIMIT = { fallback: 20, max: 100 } as const;

/**
 * The routes over one segment's members.
 *
 * @example
 * const members = segmentMemberRoutes(engine, guards, tasks); route(app, "GET", "/segments/v2/:flock/segment/:uid/all", members.listSegmentMembers);
 */
export function segmentMemberRoutes(engine: RouteEngine, guards: RouteGuards, tasks: TaskQueue) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const segmentOf = (c: Context<AppEnv, "/:flock/segment/:uid">) => liveRecord(engine, c.req.param("flock"), "segment", c.req.param("uid"));
  const describeXlsxExport = (alias: boolean) =>
    _doc(
      `Export a segment's members as XLSX${alias ? " (alias of all/xlsx)" : ""}`,
      { status: 200, description: "the receipt: a task writes the file into the journal record journal_uri (field files) and marks it complete", schema: "SegmentReportReceipt" },
      [queryParam("template", "a fieldset (uid or name) whose fields are the columns; default the display value and the type's fields"), queryParam("debug", "echoed")],
    );
  const refuse = (summary: string, why: string) => [_doc(summary, undefined, [], [501]), ...guard, (c: Context<AppEnv>) => {
    throw notOffered(c, why);
  }] as const;

  return {
    showSegmentConfig: [
      _doc("A segment's config: how to show its members", { status: 200, description: "{segment, resource_type, segment_type, view_context, user_groups, user_interface, mapping}", schema: "SegmentConfig" }),
      ...guard,
      showSegmentConfig,
    ],
    lookUpSegmentMembers: [
      _doc("Look up a segment's members by display value", { status: 200, description: "[{display_value, id, label, text, uri, value}]", schema: "SegmentLookup" }, [
        queryParam("q", "text the member's display value contains, case ignored (empty: any)"),
        queryParam("limit", `at most this many, 1..${LOOKUP_LIMIT.max} (default ${LOOKUP_LIMIT.fallback})`, { type: "integer", minimum: 1, maximum: LOOKUP_LIMIT.max }),
      ]),
      ...guard,
      lookUpSegmentMembers,
    ],
    listSegmentMembers: [
      _doc(
        "A segment's members, paged",
        { status: 200, description: "the list wrapper over the members; with verbose=true elements in the single-record shape", schema: "ListWrapper" },
        [
          queryParam("q", "text the member's display value contains, case ignored"),
          queryParam("verbose", "true: elements in the single-record shape (references expanded)"),
          queryParam("page", "1-based page number (default 1)", { type: "integer", minimum: 1 }),
          queryParam("page_size", `members per page, 1..1500 (default ${MEMBERS_DEFAULT_PAGE_SIZE})`, { type: "integer", minimum: 1, maximum: 1500 }),
        ],
      ),
      ...guard,
      listSegmentMembers,
    ],
    queueXlsxExport: [describeXlsxExport(false), ...guard, queueXlsxExport],
    queueExcelExport: [describeXlsxExport(true), ...guard, queueXlsxExport],
    streamCsvExport: [
      _doc(
        "A segment's members as CSV, streamed",
        { status: 200, description: "text/csv: a header row of labels, then one row per member (read a step at a time)", media: ["text/csv"] },
        [queryParam("template", "a fieldset (uid or name) whose fields are the columns; default the display value and the type's fields")],
      ),
      ...guard,
      streamCsvExport,
    ],
    queueMemberDeletion: [
      documented({
        tag: "segments",
        summary: "Delete a segment's members (a task)",
        description: `Queues a task deleting every member (rules ANDed in) through the engine, batch_size (${DELETE_BATCH.min}..${DELETE_BATCH.max}, default ${DELETE_BATCH.fallback}) at a time; safe_mode=true only counts. Progress and counts are on the core_event at notification_uri.`,
        auth: "key",
        body: { schema: "SegmentDeleteBody", required: false, media: ["application/json", "application/x-www-form-urlencoded"] },
        ok: { status: 200, description: "{notification_uri, lambda_params}", schema: "SegmentDeleteQueued" },
        errors: [400, 403, 404],
      }),
      ...guard,
      queueMemberDeletion,
    ],
    refusePdfReport: refuse("A segment's members as a templated PDF report (not offered)", "templated PDF reports are not offered; export the members as XLSX (all/xlsx) or read them as JSON (all)"),
    refuseMailchimpSync: refuse("Sync a segment with an email-marketing partner (not offered)", "email-marketing partner sync is not part of this service"),
    refuseReplace: refuse("Replace a segment's records (not offered)", "the hosted description does not say what the records are replaced with, so this action is not offered"),
  } as const;

  async function showSegmentConfig(c: Context<AppEnv, "/:flock/segment/:uid/config">) {
    const segment = await segmentOf(c);
    segmentWalk(engine, segment);
    return c.json(await segmentConfig(engine, segment));
  }

  async function lookUpSegmentMembers(c: Context<AppEnv, "/:flock/segment/:uid/lookup">) {
    const params = await readGatewayParams(c);
    const limit = _whole(params, "limit", 1, LOOKUP_LIMIT.max) ?? LOOKUP_LIMIT.fallback;
    const walk = segmentWalk(engine, await segmentOf(c));
    const found: StoredRecord[] = [];
    for await (const r of walkMembers(engine, walk, displayContains(params.get("q")))) {
      found.push(r);
      if (found.length >= limit) break;
    }
    return c.json(found.map((r) => ({ display_value: r.displayValue, id: uriOf(r), label: r.displayValue, text: r.displayValue, uri: uriOf(r), value: uriOf(r) })));
  }

  async function listSegmentMembers(c: Context<AppEnv, "/:flock/segment/:uid/all">) {
    const params = await readGatewayParams(c);
    const paging = readPaging(params, MEMBERS_DEFAULT_PAGE_SIZE);
    const verbose = booleanParam(params, "verbose", false);
    const segment = await segmentOf(c);
    const walk = segmentWalk(engine, segment);
    const q = params.get("q")?.trim() ?? "";
    const skip = (paging.page - 1) * paging.pageSize;
    const records: StoredRecord[] = [];
    let seen = 0;
    // Without q the count is the storage's; with q every member is looked at (one step in memory at a time).
    for await (const r of walkMembers(engine, walk, displayContains(q))) {
      if (seen >= skip && records.length < paging.pageSize) records.push(r);
      seen += 1;
      if (q === "" && records.length >= paging.pageSize) break;
    }
    const total = q === "" ? await countSegment(engine, segment) : seen;
    const query = { filters: [], mode: "AND" as const, states: ["updated" as const], page: paging.page, pageSize: paging.pageSize };
    const singles = verbose ? new Map(await Promise.all(records.map(async (r) => [r, await engine.toSingle(r)] as const))) : undefined;
    const text = await listAnswerText({ total, records }, query, { element: (r) => singles?.get(r) ?? toListElement(r) });
    return c.body(text, 200, { "Content-Type": "application/json" });
  }

  /** The columns of a members file: the fieldset named by `template`, else the display value and the type's fields. */
  async function columnsOf(flock: string, segment: StoredRecord, template: string | null): Promise<TableColumn[]> {
    const type = String(segment.data.resource_type);
    return template
      ? fieldsOf(await templateFieldset(engine, flock, type, template)).map((field) => ({ field, label: fieldLabel(field) }))
      : [{ field: "display_value", label: "Display value" }, ...[...(await typeFields(engine, flock, type)).keys()].map((field) => ({ field, label: fieldLabel(field) }))];
  }

  async function queueXlsxExport(c: Context<AppEnv, "/:flock/segment/:uid/all/xlsx">) {
    const flock = c.req.param("flock");
    const params = await readGatewayParams(c);
    const segment = await segmentOf(c);
    segmentWalk(engine, segment);
    const template = params.get("template")?.trim() || null;
    const columns = await columnsOf(flock, segment, template);
    const debug = booleanParam(params, "debug", false);
    const acting = actingEngine(c, engine);
    const name = typeof segment.data.name === "string" ? segment.data.name : segment.id;
    const journal = await acting.create(flock, "journal", {
      kind: "report",
      subject: `Members of segment ${name} (XLSX)`,
      status: "queued",
      segment: uriOf(segment),
      report_format: "xlsx",
      template,
      files: [],
    });
    const task = await tasks.queue(c, flock, SEGMENT_EXPORT_TASK, { uri: uriOf(segment), journal_uri: uriOf(journal), columns }, { registry: serverTaskRegistry, description: `export segment ${name} as XLSX` });
    return c.json({
      bucket: flock,
      uid: segment.id,
      template,
      policy: null,
      gdpr_bypass: false,
      gdpr_channel: null,
      user_uri: c.get("user").username,
      journal_uri: uriOf(journal),
      use_mapreduce: false,
      report_format: "xlsx",
      debug,
      task_id: task.id,
    });
  }

  async function streamCsvExport(c: Context<AppEnv, "/:flock/segment/:uid/all/csv">) {
    const flock = c.req.param("flock");
    const params = await readGatewayParams(c);
    const segment = await segmentOf(c);
    const walk = segmentWalk(engine, segment);
    // Everything that can refuse (segment, rules, template) is checked before the first byte.
    const columns = await columnsOf(flock, segment, params.get("template")?.trim() || null);
    const rows = async function* () {
      for await (const r of walkMembers(engine, walk)) yield memberRow(r, columns);
    };
    const name = `segment-${segment.id}.csv`;
    return new Response(tableStream("csv", columns, rows()), {
      status: 200,
      headers: { "Content-Type": TABLE_CONTENT_TYPE.csv, "Content-Disposition": `attachment; filename="${name}"` },
    });
  }

  async function queueMemberDeletion(c: Context<AppEnv, "/:flock/segment/:uid/action/delete">) {
    const flock = c.req.param("flock");
    const params = await readGatewayParams(c);
    const segment = await segmentOf(c);
    const p = checkDeleteParams({
      uri: uriOf(segment),
      rules: _objectParam(params, "rules"),
      safe_mode: booleanParam(params, "safe_mode", false),
      batch_size: _whole(params, "batch_size", DELETE_BATCH.min, DELETE_BATCH.max),
      verbose: booleanParam(params, "verbose", false),
    });
    const name = typeof segment.data.name === "string" ? segment.data.name : segment.id;
    const task = await tasks.queue(c, flock, SEGMENT_DELETE_TASK, { ...p }, { registry: serverTaskRegistry, description: `${p.safe_mode ? "count" : "delete"} the members of segment ${name}` });
    return c.json({ notification_uri: recordUri(flock, task.type, task.id), lambda_params: { uri: p.uri, rules: p.rules, safe_mode: p.safe_mode, batch_size: p.batch_size } });
  }
}

// --- internal ---

function _doc(summary: string, ok: Parameters<typeof documented>[0]["ok"], query: ReturnType<typeof queryParam>[] = [], errors: number[] = [400, 404]) {
  return documented({
    tag: "segments",
    summary,
    ...(errors.includes(501) ? { description: "Known from the hosted description and deliberately not offered (docs/hosted-compat.md): 501 with type not_implemented, after the path's auth checks." } : {}),
    auth: "key",
    ...(query.length ? { query } : {}),
    ...(ok ? { ok } : {}),
    errors: [403, 404, ...errors],
  });
}

/** A whole-number parameter from `min` to `max`, undefined when absent; else a 400 naming it. */
function _whole(params: GatewayParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === undefined && !params.has(name)) return undefined;
  const n = raw !== undefined && /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (n >= min && n <= max) return n;
  throw badRequest(`bad ${name}`, `${name} ${JSON.stringify(String(raw ?? "").slice(0, 40))} is not accepted; use a whole number from ${min} to ${max}`);
}

/** An object parameter: a JSON object in a body, or its JSON text in the query or a form; absent: {}. */
function _objectParam(params: GatewayParams, name: string): Record<string, unknown> {
  if (!params.has(name)) return {};
  let v = params.value(name);
  if (typeof v === "string") {
    if (v.trim() === "") return {};
    try {
      v = JSON.parse(v);
    } catch {
      v = undefined;
    }
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw badRequest(`bad ${name}`, `${name} must be an object of list parameters, e.g. {"source": "web"}`);
  return v as Record<string, unknown>;
}
