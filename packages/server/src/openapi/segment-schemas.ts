/**
 * @module openapi/segment-schemas
 * The answers and bodies of the segments gateway beyond `find` and `count` (spec v2-gateway
 * section 7): trees, create, config, look-up, the XLSX receipt, the delete action and
 * fieldsets, as valibot schemas named for the OpenAPI document's components.
 */
import * as v from "valibot";
import { GATEWAY_SCHEMAS } from "./gateway-schemas.js";

const str = v.string();
const nullableStr = v.nullable(v.string());
const timestamp = v.pipe(v.string(), v.description("YYYY-MM-DDTHH:MM:SS.ffffff, UTC, no zone"));
const texts = v.array(v.string());
const rules = v.pipe(v.union([v.record(v.string(), v.unknown()), v.array(v.unknown())]), v.description("list parameters as keys ({\"source\": \"web\"}), or [{field, operator, value}] combined with AND"));

// Children have this same shape; the document says so rather than recurse.
const _TREE = v.object({
  ...GATEWAY_SCHEMAS.SegmentPacket.entries,
  children: v.pipe(v.array(v.record(v.string(), v.unknown())), v.description("child segments, each a segment packet with its own children")),
});

const _FIELDSET = v.object({
  uid: str,
  uri: str,
  name: nullableStr,
  description: nullableStr,
  fields: texts,
  applicable_resources: v.pipe(texts, v.description("the types it applies to; empty: every type")),
  created: timestamp,
  last_updated: timestamp,
  record_state: str,
});

/** The components, by name (merged into `COMPONENT_SCHEMAS`). */
export const SEGMENT_SCHEMAS = {
  SegmentTrees: v.object({ segments: v.pipe(v.array(_TREE), v.description("roots by name, each with its descendants under children")) }),
  SegmentCreateBody: v.pipe(
    v.object({
      resource_type: v.pipe(str, v.description("a served resource type, or contact (required)")),
      name: v.optional(str),
      description: v.optional(str),
      segment_type: v.optional(v.picklist(["dynamic", "static", "hybrid", "auxiliary"])),
      rules: v.optional(rules),
      view_context: v.optional(v.union([str, texts])),
      parent_segment: v.optional(v.pipe(str, v.description("a segment URI"))),
      active: v.optional(v.boolean()),
      uris_include: v.optional(texts),
      uris_exclude: v.optional(texts),
      system_segment: v.optional(v.boolean()),
      tags: v.optional(texts),
      email_marketing_sync: v.optional(v.boolean()),
    }),
    v.description("The new segment's fields; each may also be sent in the query string (rules as JSON text)."),
  ),
  SegmentConfig: v.object({
    segment: str,
    resource_type: str,
    segment_type: str,
    view_context: v.array(v.unknown()),
    user_groups: v.array(v.unknown()),
    user_groups_for_display: v.array(v.unknown()),
    user_interface: v.looseObject({ can_bypass_gdpr: v.array(v.unknown()) }),
    mapping: v.object({
      collection: str,
      name: str,
      name_singular: str,
      prefix: str,
      unique_field: str,
      search_fields: texts,
      search_placeholder: str,
      sort_by: str,
      field_list: texts,
      fields: v.array(v.object({ field: str, form_type: str, label: str, style: v.null() })),
      join_people: v.boolean(),
      join_orgs: v.boolean(),
      use_mapreduce: v.boolean(),
      contact_field: nullableStr,
      contact_search_fields: texts,
    }),
  }),
  SegmentLookup: v.array(v.object({ display_value: str, id: v.pipe(str, v.description("the member's URI")), label: str, text: str, uri: str, value: str })),
  SegmentReportReceipt: v.object({
    bucket: str,
    uid: str,
    template: nullableStr,
    policy: v.null(),
    gdpr_bypass: v.boolean(),
    gdpr_channel: v.null(),
    user_uri: v.pipe(str, v.description("the account that asked")),
    journal_uri: v.pipe(str, v.description("the journal record the XLSX file is attached to (field files) when the task completes")),
    use_mapreduce: v.boolean(),
    report_format: v.literal("xlsx"),
    debug: v.boolean(),
    task_id: v.pipe(str, v.description("the core_event task writing the file")),
  }),
  SegmentDeleteBody: v.pipe(
    v.object({
      rules: v.optional(v.pipe(v.record(v.string(), v.unknown()), v.description("list parameters ANDed with the segment's rules"))),
      safe_mode: v.optional(v.pipe(v.boolean(), v.description("only count: nothing is deleted"))),
      batch_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2500))),
      verbose: v.optional(v.boolean()),
    }),
    v.description("Each may also be sent in the query string (rules as JSON text)."),
  ),
  SegmentDeleteQueued: v.object({
    notification_uri: v.pipe(str, v.description("the task's core_event URI: its tag is queued, running, complete or failed; text_body holds the counts")),
    lambda_params: v.object({ uri: str, rules: v.record(v.string(), v.unknown()), safe_mode: v.boolean(), batch_size: v.number() }),
  }),
  FieldsetList: v.object({ errors: v.array(v.unknown()), fieldsets: v.array(_FIELDSET) }),
  FieldsetSingle: v.object({
    ..._FIELDSET.entries,
    active: v.boolean(),
    locked: v.boolean(),
    field_display: v.array(v.object({ field: str, type: v.picklist(["text", "boolean", "date", "list", "reference", "number"]) })),
  }),
  FieldsetBody: v.pipe(
    v.object({
      name: v.optional(str),
      description: v.optional(str),
      fields: v.optional(v.union([str, texts])),
      resource: v.optional(v.pipe(str, v.description("a type: without fields, its known fields are saved"))),
      applicable_resources: v.optional(v.union([str, texts])),
    }),
    v.description("Each may also be sent in the query string."),
  ),
};
