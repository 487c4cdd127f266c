/**
 * @module openapi/gateway-schemas
 * The answers of the events, segments and invoices gateways (spec v2-gateway sections 1-3),
 * as valibot schemas named for the OpenAPI document's components (merged into
 * `COMPONENT_SCHEMAS`). Packets carry every stored field beside the computed ones, so they
 * are loose objects: the fields listed are always present.
 */
import * as v from "valibot";

const str = v.string();
const nullableStr = v.nullable(v.string());
const nullableNum = v.nullable(v.number());
const timestamp = v.pipe(v.string(), v.description("YYYY-MM-DDTHH:MM:SS.ffffff, UTC, no zone"));
const date = v.pipe(v.string(), v.description("YYYY-MM-DD"));
const openObject = v.record(v.string(), v.unknown());
const paged = { page: v.number(), page_size: v.number(), total: v.number(), pages: v.number() };
const expanded = v.object({ display_value: str, ref: str });

const _TICKET_TYPE = v.object({
  uri: str,
  name: nullableStr,
  description: nullableStr,
  amount: v.pipe(str, v.description("the price with two decimals, as text")),
  currency: str,
  total: v.pipe(nullableNum, v.description("stock; null = unlimited")),
  allocated: v.number(),
  reserved: v.number(),
  available: v.pipe(nullableNum, v.description("total - allocated - reserved, never below 0; null = unlimited")),
  member_only: v.boolean(),
  single_use: v.boolean(),
  access_code: nullableStr,
  available_from_date: nullableStr,
  tax: nullableStr,
  pricing: nullableStr,
  number_of_attendees_per_ticket: str,
  sort_order: v.number(),
  tags: v.array(str),
});

const _SUMMARY = v.looseObject({
  uid: str,
  uri: str,
  resource_type: v.literal("booking"),
  display_value: str,
  title: nullableStr,
  formatted_title: str,
  start_date: v.nullable(date),
  end_date: v.nullable(date),
  start_time: nullableStr,
  end_time: nullableStr,
  start_datetime: v.nullable(timestamp),
  end_datetime: v.nullable(timestamp),
  date_range: nullableStr,
  multi_day: v.boolean(),
  status: nullableStr,
  cancelled: v.boolean(),
  ticketed_event: v.boolean(),
  has_available_tickets: v.boolean(),
  is_sold_out: v.boolean(),
  minimum_ticket_price: nullableNum,
  maximum_ticket_price: nullableNum,
  created: timestamp,
  last_updated: timestamp,
});

const _PACKET = v.looseObject({
  ..._SUMMARY.entries,
  has_cancelled: v.boolean(),
  bookable_refs: v.array(str),
  ticket_types: v.record(v.string(), _TICKET_TYPE),
  has_ticketed_event: v.boolean(),
  total_stock: nullableNum,
  total_stock_allocated: v.number(),
  total_stock_available: nullableNum,
  ticket_type_income: v.record(v.string(), v.number()),
  user_interface: v.record(v.string(), v.boolean()),
});

const _TICKET = v.looseObject({
  uid: str,
  uri: str,
  created: timestamp,
  last_updated: timestamp,
  record_state: str,
  booking: str,
  booking_display: str,
  buyer: nullableStr,
  buyer_display: nullableStr,
  ticket_type: nullableStr,
  ticket_type_display: nullableStr,
  amount: nullableNum,
  currency: nullableStr,
  quantity: v.number(),
  number_of_attendees: v.number(),
  date: v.nullable(timestamp),
  purchase_date: str,
  display_value: str,
  formatted_title: str,
  ticket_id: str,
  person_ref: nullableStr,
  status: nullableStr,
  attendance: nullableStr,
});

const _SESSION = v.object({
  uid: str,
  uri: str,
  ticket_ref: str,
  ticket: nullableStr,
  person_ref: nullableStr,
  attendee_name: nullableStr,
  attendee_email: nullableStr,
  display_value: nullableStr,
  guest: v.boolean(),
  guest_ref: nullableStr,
  status: v.pipe(str, v.description("the recorded attendance, or accepted when none is")),
  legacy_uid: v.unknown(),
  record_state: str,
  created: timestamp,
  last_updated: timestamp,
});

const _SEGMENT = v.object({
  uid: str,
  uri: str,
  name: nullableStr,
  description: nullableStr,
  display_value: str,
  resource_type: nullableStr,
  segment_type: v.pipe(str, v.description("dynamic, static, hybrid or auxiliary")),
  rules: v.pipe(v.union([openObject, v.array(v.unknown())]), v.description("as stored: list parameters as keys, or [{field, operator, value}]")),
  uris_include: v.array(v.unknown()),
  uris_exclude: v.array(v.unknown()),
  active: v.boolean(),
  view_context: v.array(v.unknown()),
  parent_segment: nullableStr,
  tags: v.array(v.unknown()),
  system_segment: v.boolean(),
  legacy_uid: v.unknown(),
  email_marketing_sync: v.boolean(),
  record_state: str,
  created: timestamp,
  last_updated: timestamp,
  user_interface: v.object({
    can_create_segment: v.boolean(),
    can_edit_segment: v.boolean(),
    can_delete_segment: v.boolean(),
    can_restore_segment: v.boolean(),
    policy_name: v.null(),
  }),
});

const _MONEY = v.pipe(v.number(), v.description("in major units, rounded to 2 decimals"));

const _INVOICE = v.object({
  id: v.pipe(str, v.description("invoice_number if stored, else the uid")),
  invoice_uri: str,
  date: v.nullable(date),
  buyer_ref: nullableStr,
  billing_contact: nullableStr,
  buyer: v.object({
    buyer_name: nullableStr,
    buyer_email: nullableStr,
    buyer_telephone: nullableStr,
    buyer_address: v.nullable(v.array(v.unknown())),
    buyer_locality: nullableStr,
    buyer_region: nullableStr,
    buyer_postal_code: nullableStr,
    buyer_country: nullableStr,
    buyer_vat_number: nullableStr,
  }),
  context: nullableStr,
  invoice_currency: str,
  currency: v.pipe(str, v.description("the same as invoice_currency (deprecated by the vendor)")),
  line_items: v.array(
    v.looseObject({
      name: v.optional(v.unknown()),
      price: v.optional(v.unknown()),
      currency: str,
      quantity: v.number(),
      tax_rate: v.number(),
      total_before_tax: _MONEY,
      tax_total: _MONEY,
      total: _MONEY,
      total_float: _MONEY,
      tax_total_float: _MONEY,
    }),
  ),
  total_before_tax: _MONEY,
  tax_total: _MONEY,
  total_tax: _MONEY,
  total: _MONEY,
  total_paid: _MONEY,
  total_scheduled: _MONEY,
  number_of_payments: v.number(),
  due: v.pipe(v.number(), v.description("total - total_paid (an amount)")),
  payment_reference_uri: nullableStr,
  status: str,
  purchase_order_no: nullableStr,
  for_the_attention_of: nullableStr,
  signature: str,
  signed_invoice_uri: str,
  links: v.array(v.object({ rel: str, href: str, filename: str, prompt: str })),
  config: v.looseObject({ flock_name: str, default_currency: str, template: str }),
});

const _ORDER = v.looseObject({
  buyer: v.pipe(str, v.description("the buyer's URI")),
  buyer_index_name: v.pipe(nullableStr, v.description("the buyer's sortable name")),
  attendee_count: v.pipe(v.number(), v.description("distinct attendees of the counted tickets")),
  tickets: v.pipe(v.number(), v.description("units of the counted tickets")),
  tickets_as_string: v.pipe(str, v.description("2 x Adult, 1 x Child")),
  order_date: v.pipe(v.nullable(date), v.description("the earliest purchase date")),
  currencies: v.array(str),
  order_total: v.pipe(
    v.record(v.string(), v.object({ total: _MONEY, paid: _MONEY, outstanding: _MONEY, processing_fees: _MONEY, fully_paid: v.boolean() })),
    v.description("by currency (lower-case): whatever currencies occur"),
  ),
  booking_uri: str,
  ticket_uris: v.pipe(v.array(str), v.description("ours: the order's live tickets, every status")),
});

const _QUESTION = v.object({
  field: str,
  question: str,
  answer: v.unknown(),
  form_type: nullableStr,
  required: v.boolean(),
  marks_available: nullableNum,
  uri: v.pipe(nullableStr, v.description("the form's URI")),
});

/** The gateway components, by name. */
export const GATEWAY_SCHEMAS = {
  EventList: v.object({ bookings: v.array(_SUMMARY), ...paged }),
  EventPacket: v.pipe(_PACKET, v.description("Every stored data field of the booking, as stored, plus these computed fields.")),
  AvailableTickets: v.object({ available_tickets: v.array(_TICKET_TYPE) }),
  EventTickets: v.object({ booking: _PACKET, booking_uri: str, tickets: v.array(_TICKET) }),
  EventAttendance: v.object({ booking: _PACKET, booking_uri: str, sessions: v.array(_SESSION) }),
  EventAttendanceUpdated: v.object({
    booking_ref: str,
    person_ref: str,
    status: str,
    attendance: v.array(
      v.object({
        uri: str,
        attendance: v.object({
          attendee_email: nullableStr,
          attendee_name: nullableStr,
          booking_ref: expanded,
          guest: v.boolean(),
          legacy_uid: v.unknown(),
          person_ref: v.nullable(expanded),
          status: str,
          ticket_ref: str,
        }),
      }),
    ),
  }),
  Invoice: _INVOICE,
  SegmentList: v.object({ segments: v.array(_SEGMENT), ...paged }),
  SegmentPacket: _SEGMENT,
  SegmentCount: v.object({
    count: v.pipe(v.number(), v.description("the segment's members now")),
    description: nullableStr,
    segment: v.pipe(str, v.description("the segment's URI")),
  }),
  EventSummary: _SUMMARY,
  EventOrder: _ORDER,
  EventOrders: v.object({
    booking: _PACKET,
    booking_uri: str,
    buyers: v.pipe(v.record(v.string(), _ORDER), v.description("by buyer URI")),
    number_of_orders: v.number(),
    number_of_unpaid_orders: v.number(),
  }),
  ContactOrders: v.object({ contact_uri: str, orders: v.array(v.looseObject({ ..._ORDER.entries, booking_display: str })) }),
  EventOrderDeleted: v.object({
    booking_uri: str,
    contact_uri: str,
    deleted: v.pipe(v.array(str), v.description("the deleted tickets' URIs")),
    errors: v.array(str),
    returned_stock: v.pipe(v.array(str), v.description("ticket types with a stock limit that got stock back")),
  }),
  EventOrderQuestions: v.object({
    booking_uri: str,
    booking_display_value: str,
    buyer_uri: str,
    responses: v.array(
      v.object({
        uri: str,
        role: v.picklist(["buyer", "attendee"]),
        contact_uri: str,
        contact_display_value: nullableStr,
        form_ref: nullableStr,
        status: nullableStr,
        response: v.object({
          flat: openObject,
          sections: v.array(v.object({ title: nullableStr, questions: v.array(_QUESTION) })),
          simple: v.array(_QUESTION),
        }),
      }),
    ),
  }),
  EventRebaseTickets: v.object({ ticket_changes: v.array(v.object({ uri: str, old_date: v.unknown(), new_date: date })), unchanged_tickets: v.number() }),
  EventRebaseQuestions: v.object({ changes: v.array(v.object({ uri: str })), unchanged: v.number() }),
  EventExportMeta: v.object({ booking_uri: str, fieldsets: v.array(str), columns: v.array(v.object({ field: str, label: str })), rows: v.number() }),
};
