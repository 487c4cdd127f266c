/**
 * @module openapi/schemas
 * The valibot schemas of what the HTTP API reads and answers, named as the OpenAPI
 * document's components. Request bodies the engine checks come from core (`PersonInputSchema`,
 * `BulkActionBodySchema`); the clock's body is checked here with `ClockAdvanceBody` itself.
 * A change to any of them changes `GET /api/openapi.json` and the client's generated types.
 */
import { AUDIT_ACTIONS, BulkActionBodySchema, MODIFIERS, parseTimestamp, PERSON_FIELDS, PersonInputSchema, SMART_DATES, type PersonFieldKind } from "@records-service/core";
import * as v from "valibot";
import { FORM_RESPONSE_SCHEMAS } from "./form-response-schemas.js";
import { GATEWAY_SCHEMAS } from "./gateway-schemas.js";
import { INDEX_SCHEMAS } from "./index-schemas.js";
import { SEGMENT_SCHEMAS } from "./segment-schemas.js";

const str = v.string();
const nullableStr = v.nullable(v.string());
const timestamp = v.pipe(v.string(), v.description("YYYY-MM-DDTHH:MM:SS.ffffff, UTC, no zone"));
const openObject = v.record(v.string(), v.unknown());

/** The value of a person data field as answered, by field kind. */
function _personValue(kind: PersonFieldKind) {
  switch (kind) {
    case "boolean":
      return v.nullable(v.boolean());
    case "flag":
      return v.boolean();
    case "json":
      return v.unknown();
    case "list":
      // The single-record shape answers an unset list as [null]; lists answer null.
      return v.nullable(v.array(nullableStr));
    default:
      // Text, dates, handles and references: a string (a reference in the single shape may be
      // expanded to {display_value, ref}).
      return v.nullable(v.union([v.string(), v.object({ display_value: str, ref: str })]));
  }
}

const ListElement = v.object({
    _id: v.null(),
    bucket: str,
    created: timestamp,
    data: openObject,
    display_value: str,
    id: str,
    last_updated: timestamp,
    links: v.array(v.unknown()),
    permissions: openObject,
    resource: str,
    state: str,
    uri: str,
  });

const _forward = (unit: string) =>
  v.pipe(v.number(`${unit} must be a number`), v.finite(`${unit} must be finite`), v.gtValue(0, `${unit} must be more than 0: the clock never moves back`));

/** One outbox job as the outbox routes and `records-service jobs` show it. */
const _OUTBOX_JOB = v.object({
  id: str,
  delivery_id: str,
  trigger: str,
  action: str,
  data_event: str,
  status: v.picklist(["pending", "held", "done", "dead"]),
  attempts: v.number(),
  next_attempt_at: v.nullable(timestamp),
  first_attempt_at: v.nullable(timestamp),
  last_error: nullableStr,
  last_status: v.nullable(v.number()),
  created: timestamp,
});

/** One entry of a record's or a flock's history. */
const _AUDIT_ENTRY = v.object({
  when: v.pipe(timestamp, v.description("the write's time; for an event, when it fired")),
  action: v.pipe(v.picklist(AUDIT_ACTIONS), v.description("the write, as its state change says, or event (a data event about the record)")),
  uri: v.pipe(str, v.description("the record the entry is about")),
  event: v.pipe(nullableStr, v.description("for an event: the trigger name (contact_created)")),
  event_uri: v.pipe(nullableStr, v.description("for an event: the data event's URI")),
  version: v.pipe(v.nullable(v.number()), v.description("the record's version after the write, when known")),
  user: v.pipe(nullableStr, v.description("who made the write (a member account reads '{flock} {email}'); null for the service's own work, or when not kept")),
  application: v.pipe(
    nullableStr,
    v.description("the APPLICATION label it came through, a system:<writer> marker (system:scheduler, system:outbox, system:tasks, system:import, system:copy) for the service's own work, or null (unattributed, or not kept)"),
  ),
  changed_fields: v.pipe(v.nullable(v.array(str)), v.description("the data fields the write changed (every field for a creation); null when not kept, and for events")),
});

/** A record's audit entry: today's fields and the hosted service's (spec v2-gateway section 0). */
const _RECORD_AUDIT_ENTRY = v.object({
  ..._AUDIT_ENTRY.entries,
  user: v.pipe(nullableStr, v.description("the actor: the person's URI where a member account of the flock made the write and its person is found, else the account name; null for the service's own work, or when not kept")),
  date: v.pipe(timestamp, v.description("the same as when")),
  message: v.pipe(str, v.description("one line saying what happened (\"Ada Lovelace changed job_title and known_as\")")),
  revertable: v.pipe(v.boolean(), v.description("false: the change log keeps which fields changed, not their previous values")),
  resource: v.pipe(str, v.description("the record's resource type")),
  clean_diff: v.pipe(
    v.array(v.object({ field: str, prev: nullableStr, value: nullableStr, verb: v.picklist(["change", "add", "drop"]) })),
    v.description("per changed field: value (as text) after the write where it is still the record's value, else null; prev null (not kept); verb add for a creation, drop when the field was removed, else change"),
  ),
});

/** `POST /api/v1/_clock/advance/`: exactly one of days, seconds or to. */
export const ClockAdvanceBranches = {
  days: v.strictObject({ days: _forward("days") }),
  seconds: v.strictObject({ seconds: _forward("seconds") }),
  to: v.strictObject({
    to: v.pipe(
      v.string("to must be a timestamp string"),
      v.check((s) => parseTimestamp(s) !== undefined, "to must be a UTC timestamp: YYYY-MM-DDTHH:MM:SS[.ffffff][Z]"),
    ),
  }),
} as const;

/** Every schema of the document's `components.schemas`, by name. */
export const COMPONENT_SCHEMAS = {
  ErrorV1: v.pipe(
    v.object({ error: str, error_detail: str }),
    v.description("The error body of every /api/v1 path (and of /files/v1)."),
  ),
  ErrorV2: v.pipe(
    v.object({
      title: str,
      description: str,
      error: v.pipe(str, v.description("the same text as title")),
      type: v.pipe(str, v.description("machine-readable: bad_request, unauthorized, forbidden, not_found, method_not_allowed, conflict, gone, payload_too_large, rate_limited, server_error, not_implemented, unavailable")),
      link: v.optional(v.object({ href: str, rel: str, text: str })),
    }),
    v.description("The error body of every /api/v2, gateway (/search/v2, /audit/v2, /events/v2, ...) and /selfservice/v2 path, signed resources included."),
  ),
  Message: v.object({ message: str }),
  Health: v.pipe(
    v.object({
      message: v.pipe(str, v.description("\"ok\": the database answers")),
      database: v.object({ reachable: v.boolean() }),
      process: v.object({
        pid: v.pipe(v.number(), v.description("the process that answered")),
        workers: v.pipe(v.array(str), v.description("background workers running in it: outbox, scheduler, tasks, search (and backup when configured)")),
      }),
      leases: v.array(
        v.object({
          name: v.pipe(str, v.description("scheduler, task (a running bulk action or other long task), or another worker's lease")),
          holder: v.pipe(str, v.description("host:pid:id of the holding process")),
          this_process: v.boolean(),
          expires_at: v.pipe(timestamp, v.description("when it lapses unless its holder renews it")),
        }),
      ),
    }),
    v.description("GET /api/v1/health/: readiness, this process's workers and the holders of shared work."),
  ),
  CardLink: v.pipe(v.object({ url: str }), v.description("The member's signed card link (opens without a key).")),
  Credentials: v.object({ username: str, password: str }),
  ApiKey: v.object({ api_key: v.pipe(str, v.description("send as Authorization: Bearer <api_key>")) }),
  FlockList: v.object({ flocks: v.array(v.object({ identifier: str, name: str })) }),
  TypeList: v.object({ resource_type: v.array(v.object({ name: str, count: v.number(), last_modified: v.nullable(timestamp) })) }),
  RecordFields: v.pipe(
    openObject,
    v.description("The record's data fields as top-level keys. Person records take only the fields of PersonFields; other types take any fields."),
  ),
  PersonFields: v.pipe(PersonInputSchema, v.description("The fields a client may write to a person (all optional).")),
  PersonData: v.pipe(
    v.object(Object.fromEntries(Object.entries(PERSON_FIELDS).map(([name, kind]) => [name, _personValue(kind)]))),
    v.description("A person's data as answered: every field present, unset ones null."),
  ),
  Envelope: v.object({
    bucket: str,
    data: openObject,
    display_value: str,
    links: v.array(v.unknown()),
    meta: v.object({ created: timestamp, last_updated: timestamp, state: str }),
    resource: str,
    uri: str,
  }),
  ListElement,
  ListWrapper: v.object({
    grand_total: v.number(),
    total: v.number(),
    page: v.number(),
    page_size: v.number(),
    pages: v.number(),
    links: v.array(v.unknown()),
    results: v.array(ListElement),
    formatted_results: v.array(v.unknown()),
  }),
  ChangedFields: v.pipe(openObject, v.description("The fields that changed, system-generated ones included, with their new values.")),
  FileUpdate: v.object({ errors: openObject, updates: v.record(v.string(), v.array(v.string())) }),
  RecalcBody: v.object({ force: v.optional(v.boolean()) }),
  RecalcResult: v.object({ status: str, force: v.boolean() }),
  DisplayValue: v.object({ display_value: str }),
  TriggerMap: v.record(
    v.string(),
    v.array(v.object({ trigger: str, action: str, template: str, url: nullableStr, active: v.boolean(), comment: str })),
  ),
  OutboxJobs: v.object({ jobs: v.array(_OUTBOX_JOB) }),
  OutboxJobRetried: v.pipe(v.object({ job: _OUTBOX_JOB }), v.description("The job, pending and due now.")),
  ApplicationStats: v.object({
    since: timestamp,
    total: v.number(),
    unattributed: v.number(),
    applications: v.array(v.object({ application: str, requests: v.number(), last_seen: timestamp })),
  }),
  BulkActionBody: BulkActionBodySchema,
  TaskId: v.object({ task_id: v.pipe(str, v.description("the id of the core_event record that reports the task")) }),
  MemberCredentials: v.object({ email: str, password: str }),
  SelfServiceUserCreated: v.object({ email: str, status: v.literal("created"), username: str }),
  SelfServiceSession: v.object({
    bearer_token: str,
    email: str,
    username: str,
    first_name: nullableStr,
    last_name: nullableStr,
    session_expiry: timestamp,
    status: str,
  }),
  LoggedOut: v.object({ status: str }),
  PreauthBody: v.object({ email: str, quick: v.optional(v.unknown()) }),
  EmailSender: v.pipe(
    v.object({ uid: str, email: v.nullable(str), display_name: v.nullable(str), products: v.array(str), allow_for_all_users: v.boolean(), specific_user_list: v.array(str) }),
    v.description("An email sender (an email_sender record)."),
  ),
  EmailSenders: v.object({
    senders: v.array(v.object({ uid: str, email: v.nullable(str), display_name: v.nullable(str), products: v.array(str), allow_for_all_users: v.boolean(), specific_user_list: v.array(str) })),
    uids: v.array(v.object({ uid: str, email: v.nullable(str) })),
  }),
  EmailSenderBody: v.pipe(
    v.object({ email: v.optional(str), display_name: v.optional(str), products: v.optional(v.array(str)), allow_for_all_users: v.optional(v.boolean()), specific_user_list: v.optional(v.array(str)) }),
    v.description("POST: every field required; PUT: the fields to change. Also accepted in the query string or a form body (lists repeated or comma-separated)."),
  ),
  MembershipExtras: v.pipe(
    v.object({
      uri: str,
      additional_fields: v.array(
        v.object({ field: str, label: str, description: str, form_type: str, required: v.boolean(), options: v.optional(v.array(str)), dob_required: v.optional(v.boolean()) }),
      ),
      conditions: v.array(v.object({ key: str, value: str })),
    }),
    v.description("A membership type's extras: the additional fields its form asks and its conditions."),
  ),
  AdditionalFieldBody: v.object({
    label: str,
    description: str,
    form_type: v.picklist(["checkbox", "date", "email", "multi-choice", "number", "person_record", "select", "tel", "text", "textarea"]),
    field: v.optional(str),
    required: v.optional(v.boolean()),
    options: v.optional(v.array(str)),
    dob_required: v.optional(v.boolean()),
  }),
  ConditionBody: v.object({ key: str, value: str }),
  VehicleSearch: v.object({
    matched_by: v.picklist(["registration_number", "engine_number", "identifying_number"]),
    count: v.number(),
    results: v.array(openObject),
  }),
  MemberPreauth: v.pipe(
    v.object({ email: str, username: str, status: v.picklist(["active", "blocked"]), next_step: v.picklist(["password", "activation", "blocked"]) }),
    v.description("A member account exists. Nothing else is told: no names, never a password hash."),
  ),
  MemberAccount: v.object({
    email: str,
    username: str,
    status: str,
    first_name: nullableStr,
    last_name: nullableStr,
    person: v.pipe(nullableStr, v.description("the member's person URI (the non-deleted person with that email, earliest created), or null")),
    last_login_date: v.pipe(v.nullable(timestamp), v.description("the last successful login, or null")),
    session_expiry: v.pipe(v.nullable(timestamp), v.description("the latest open session's expiry, or null")),
  }),
  MemberPerson: v.pipe(
    v.looseObject({ uri: str, display_value: str }),
    v.description("The member's person: its data fields as stored (references as URIs), uri and display_value."),
  ),
  MemberAccountDetail: v.object({
    email: str,
    username: str,
    first_name: nullableStr,
    last_name: nullableStr,
    session_expiry: v.pipe(v.nullable(timestamp), v.description("a member token: that session's expiry; a core key: the latest open session's, or null")),
    person: v.nullable(v.looseObject({ uri: str, display_value: str })),
  }),
  Reservation: v.looseObject({
    uid: str,
    uri: str,
    status: v.optional(nullableStr),
    cancellation_reason: v.optional(str),
  }),
  ReservationList: v.object({ person_uri: str, reservations: v.array(v.unknown()) }),
  FilterModifier: v.pipe(v.picklist(MODIFIERS), v.description("The list filter modifiers: `{field}__{modifier}={value}`.")),
  SmartDate: v.pipe(v.picklist(SMART_DATES), v.description("Words that stand in for a date in a list filter.")),
  ClockNow: v.object({ now: timestamp }),
  RecordAudit: v.pipe(
    v.object({ uri: str, count: v.number(), results: v.array(_RECORD_AUDIT_ENTRY), related_uris: v.array(str) }),
    v.description("A record's history, newest first: every write the change log keeps and the data events about it; what the log no longer keeps (purged) told from the record itself, without user, application or fields. count: entries since since_days, before limit."),
  ),
  FlockAudit: v.pipe(
    v.object({ count: v.number(), skip: v.number(), results: v.array(_AUDIT_ENTRY) }),
    v.description("The flock's history, newest first: its kept writes, then its data events from before the oldest kept change."),
  ),
  Provenance: v.object({
    uri: str,
    created: timestamp,
    last_updated: timestamp,
    version: v.number(),
    state: str,
    created_event: v.pipe(nullableStr, v.description("the *_created data event's URI")),
    source: v.unknown(),
    legacy_uid: v.unknown(),
    external_ids: v.array(v.unknown()),
    created_by: v.pipe(nullableStr, v.description("who created the record, while its creation is in the change log; null for the service's own work or when no longer kept")),
    application: v.pipe(nullableStr, v.description("the APPLICATION label (or system:<writer> marker) it was created through; null when unattributed or no longer kept")),
  }),
  ReadModel: v.pipe(openObject, v.description("A hosted read model's JSON object (contact details, summaries, aggregates, find, search); its fields vary with the read.")),
  LookupEntries: v.pipe(v.array(v.object({ id: str, text: str })), v.description("Picker entries: matching records' ids and display values.")),
  ClockAdvanceBody: v.pipe(
    v.union([ClockAdvanceBranches.days, ClockAdvanceBranches.seconds, ClockAdvanceBranches.to]),
    v.description("How far to move: {\"days\": n}, {\"seconds\": n} or {\"to\": timestamp}; forward only."),
  ),
  ClockAdvanced: v.object({
    now: timestamp,
    fired: v.pipe(v.record(v.string(), v.number()), v.description("how many data events of each name fell due and ran")),
  }),
  // The events, segments and invoices gateways (openapi/gateway-schemas).
  ...GATEWAY_SCHEMAS,
  // The segments gateway beyond find and count, and fieldsets (openapi/segment-schemas).
  ...SEGMENT_SCHEMAS,
  // The member app's form responses (openapi/form-response-schemas).
  ...FORM_RESPONSE_SCHEMAS,
  // The value index's operator routes (openapi/index-schemas).
  ...INDEX_SCHEMAS,
};

/** A component's name. */
export type ComponentName = keyof typeof COMPONENT_SCHEMAS;
