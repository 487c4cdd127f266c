/**
 * @module gateway/hosted-operations
 * The hosted service's 80 gateway operations (spec v2-gateway, appendix) and what this
 * server does with each: `served` (by the route `ours`), `501` (the documented refusal the
 * spec's P3 section decides, route `ours`) or `planned` (not answered yet: still a route-level
 * 404; `target` says what it will be). docs/hosted-compat.md shows this list as a table, and
 * a test holds both against the app's routes, so a route added or removed without this list
 * changing fails.
 */

/** What this server does with a hosted operation. */
type HostedStatus = "served" | "501" | "planned";

/** One operation of the hosted description. */
export interface HostedOperation {
  /** Its row number in the spec's appendix. */
  n: number;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The path as the hosted description spells it (its typos kept). */
  hosted: string;
  status: HostedStatus;
  /** Our route pattern (Hono syntax) for `served` and `501`. */
  ours?: string;
  /** For `planned`: what the spec decides it will be. */
  target?: "served" | "501";
  /** Why, in a few words. */
  why: string;
}

/** A route of ours on a gateway surface that is not one of the 80 (an alias, or a path of our own). */
export interface GatewayExtraRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  ours: string;
  why: string;
}

/** The 80 operations, in the spec appendix's order. */
export const HOSTED_OPERATIONS: readonly HostedOperation[] = [
  { n: 1, method: "GET", hosted: "/api/v2/{bucket}/{resource_type}/{uid}/avatar", status: "served", ours: "/api/v2/:flock/:type/:id/avatar", why: "served: the record's avatar image" },
  { n: 2, method: "GET", hosted: "/api/v2/{bucket}/{resource_type}/{uid}/display", status: "served", ours: "/api/v2/:flock/:type/:id/display", why: "served: the record's display value" },
  { n: 3, method: "GET", hosted: "/api/v2/find/person/{bucket}", status: "served", ours: "/api/v2/find/:type/:flock", why: "served: find persons by fields" },
  { n: 4, method: "GET", hosted: "/api/v2{contact_uri}summary", status: "served", ours: "/api/v2/:flock/:type/:id/summary", why: "served: contact summary" },
  { n: 5, method: "GET", hosted: "/api/v2{person_uri}communications/detail", status: "served", ours: "/api/v2/:flock/:type/:id/communications/detail", why: "served: communications detail" },
  { n: 6, method: "GET", hosted: "/api/v2{person_uri}personal/detail", status: "served", ours: "/api/v2/:flock/:type/:id/personal/detail", why: "served: personal detail" },
  { n: 7, method: "GET", hosted: "/api/v2{person_uri}membership/all", status: "served", ours: "/api/v2/:flock/:type/:id/membership/all", why: "served: memberships in the hosted shape" },
  { n: 8, method: "GET", hosted: "/api/v2{bucket}/member/{uid}/", status: "served", ours: "/api/v2/:flock/:type/:id", why: "served by the generic record read (the hosted path lacks a slash after v2)" },
  { n: 9, method: "GET", hosted: "/api/v2{bucket}/member/{uid}/detail", status: "served", ours: "/api/v2/:flock/member/:id/detail", why: "served: member detail" },
  { n: 10, method: "GET", hosted: "/audit/v2/{bucket}/audit", status: "served", ours: "/audit/v2/:flock/audit", why: "served: the flock's audit" },
  { n: 11, method: "GET", hosted: "/audit/v2/{bucket}/{resource_type}/{uid}/audit", status: "served", ours: "/audit/v2/:flock/:type/:uid/audit", why: "served: a record's history in the hosted shape" },
  { n: 12, method: "GET", hosted: "/api/v2/{bucket}/{resource_type}/{uid}/provenance", status: "served", ours: "/api/v2/:flock/:type/:id/provenance", why: "served: a record's provenance" },
  { n: 13, method: "GET", hosted: "/events/v2/{bucket}", status: "served", ours: "/events/v2/:flock", why: "served: events from 14 days back to 90 ahead" },
  { n: 14, method: "GET", hosted: "/events/v2/{bucket}/bookings/{state}", status: "served", ours: "/events/v2/:flock/bookings/:state", why: "served: events in a state" },
  { n: 15, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}", status: "served", ours: "/events/v2/:flock/booking/:uid", why: "served: the event packet" },
  { n: 16, method: "PUT", hosted: "/events/v2/{bucket}/booking/{uid}/rebase/tickets", status: "served", ours: "/events/v2/:flock/booking/:uid/rebase/tickets", why: "served: tickets' start_date set to the event's, through the engine" },
  { n: 17, method: "PUT", hosted: "/events/v2/{bucket}/booking/{uid}/rebase/questions", status: "served", ours: "/events/v2/:flock/booking/:uid/rebase/questions", why: "served: missing form responses of buyers and attendees created" },
  { n: 18, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/summary", status: "served", ours: "/events/v2/:flock/booking/:uid/summary", why: "served: the summary packet" },
  { n: 19, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/attendance", status: "served", ours: "/events/v2/:flock/booking/:uid/attendance", why: "served: attendance" },
  { n: 20, method: "PUT", hosted: "/events/v2/{bucket}/booking/{uid}/attendance", status: "served", ours: "/events/v2/:flock/booking/:uid/attendance", why: "served: set one attendee's attendance" },
  { n: 21, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/attendance/all", status: "served", ours: "/events/v2/:flock/booking/:uid/attendance/all", why: "served: attendance, every session" },
  { n: 22, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/attendance/export", status: "served", ours: "/events/v2/:flock/booking/:uid/attendance/export", why: "served: attendance as XLSX (or CSV), streamed" },
  { n: 23, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/available_tickets", status: "served", ours: "/events/v2/:flock/booking/:uid/available_tickets", why: "served: ticket types with stock" },
  { n: 24, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/orders", status: "served", ours: "/events/v2/:flock/booking/:uid/orders", why: "served: an event's orders by buyer" },
  { n: 25, method: "GET", hosted: "/events/v2/{bucket}/person/{uid}/orders", status: "served", ours: "/events/v2/:flock/person/:uid/orders", why: "served: a person's orders, newest event first" },
  { n: 26, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/orders/export", status: "served", ours: "/events/v2/:flock/booking/:uid/orders/export", why: "served: orders as XLSX (or CSV), one row per ticket, streamed" },
  { n: 27, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/orders/export/meta", status: "served", ours: "/events/v2/:flock/booking/:uid/orders/export/meta", why: "served: the orders export's columns and row count" },
  { n: 28, method: "GET", hosted: "/events/v2/{bucket}/booking/{uid}/tickets/all", status: "served", ours: "/events/v2/:flock/booking/:uid/tickets/all", why: "served: every ticket of an event" },
  { n: 29, method: "GET", hosted: "/events/v2/{bucket}/{resource_type}/{uid}/order/{euid}", status: "served", ours: "/events/v2/:flock/:resource_type/:uid/order/:euid", why: "served: one contact's order for an event" },
  { n: 30, method: "DELETE", hosted: "/events/v2/{bucket}/{resource_type}/{uid}/order/{euid}", status: "served", ours: "/events/v2/:flock/:resource_type/:uid/order/:euid", why: "served: deletes the order's tickets through the engine" },
  { n: 31, method: "GET", hosted: "/events/v2/{bucket}/{resource_type}/{uid}/order/{euid}/questions", status: "served", ours: "/events/v2/:flock/:resource_type/:uid/order/:euid/questions", why: "served: the order's form responses" },
  { n: 32, method: "GET", hosted: "/internal/v2/{bucket}/membership_type/{uid}/extras", status: "served", ours: "/internal/v2/:flock/membership_type/:uid/extras", why: "served: a membership type's extras" },
  { n: 33, method: "POST", hosted: "/internal/v2/{bucket}/membership_type/{uid}/extras/additional_field", status: "served", ours: "/internal/v2/:flock/membership_type/:uid/extras/additional_field", why: "served: add or replace an additional field" },
  { n: 34, method: "DELETE", hosted: "/internal/v2/{bucket}/membership_type/{uid}/extras/additional_field", status: "served", ours: "/internal/v2/:flock/membership_type/:uid/extras/additional_field", why: "served: remove an additional field" },
  { n: 35, method: "POST", hosted: "/internal/v2/{bucket}/membership_type/{uid}/extras/condition", status: "served", ours: "/internal/v2/:flock/membership_type/:uid/extras/condition", why: "served: set a condition" },
  { n: 36, method: "DELETE", hosted: "/internal/v2/{bucket}/membership_type/{uid}/extras/condition", status: "served", ours: "/internal/v2/:flock/membership_type/:uid/extras/condition", why: "served: remove a condition" },
  { n: 37, method: "POST", hosted: "/internal/v2/{bucket}/sync/{partner}/{action}/{data_type}", status: "501", ours: "/internal/v2/:flock/sync/:partner/:action/:data_type", why: "501: partner integrations (accounting, payments, ticketing, email marketing) are not part of this service" },
  { n: 38, method: "POST", hosted: "/internal/v2/system/build/warehouse/{facet}", status: "501", ours: "/internal/v2/system/build/warehouse/:facet", why: "501: the vendor's reporting warehouse; our aggregates are live (groupby, distinct)" },
  { n: 39, method: "POST", hosted: "/internal/v2/{bucket}/user_policy/standard", status: "501", ours: "/internal/v2/:flock/user_policy/standard", why: "501: access is roles per flock, not composable policies" },
  { n: 40, method: "POST", hosted: "/internal/v2/{bucket}/user_policy/{uid}/groups", status: "501", ours: "/internal/v2/:flock/user_policy/:uid/groups", why: "501: access is roles per flock, not user groups" },
  { n: 41, method: "POST", hosted: "/internal/v2/{bucket}/user_policy/{uid}/leaders", status: "501", ours: "/internal/v2/:flock/user_policy/:uid/leaders", why: "501: access is roles per flock, not user groups" },
  { n: 42, method: "POST", hosted: "/internal/v2/{bucket}/user_policy/{uid}/single", status: "501", ours: "/internal/v2/:flock/user_policy/:uid/single", why: "501: access is roles per flock, not single-user policies" },
  { n: 43, method: "GET", hosted: "/internal/v2/{bucket}/email_senders", status: "served", ours: "/internal/v2/:flock/email_senders", why: "served: email senders over email_sender records" },
  { n: 44, method: "POST", hosted: "/internal/v2/{bucket}/email_senders", status: "served", ours: "/internal/v2/:flock/email_senders", why: "served: add an email sender" },
  { n: 45, method: "GET", hosted: "/internal/v2/{bucket}/email_sender/{uid}", status: "served", ours: "/internal/v2/:flock/email_sender/:uid", why: "served: one email sender" },
  { n: 46, method: "DELETE", hosted: "/internal/v2/{bucket}/email_sender/{uid}", status: "served", ours: "/internal/v2/:flock/email_sender/:uid", why: "served: delete an email sender" },
  { n: 47, method: "PUT", hosted: "/internal/v2/{bucket}/email_sender/{uid}", status: "served", ours: "/internal/v2/:flock/email_sender/:uid", why: "served: change an email sender" },
  { n: 48, method: "GET", hosted: "/invoices/v2/{bucket}/{invoice_type}/{uid}", status: "served", ours: "/invoices/v2/:flock/:invoice_type/:uid", why: "served: an invoice as JSON" },
  { n: 49, method: "GET", hosted: "/invoices/v2/{bucket}/{invoice_type}/{uid}/{signature}", status: "served", ours: "/invoices/v2/:flock/:invoice_type/:uid/:signature", why: "served: an invoice through its signed link" },
  { n: 50, method: "GET", hosted: "/search/v2/{bucket}", status: "served", ours: "/search/v2/:flock", why: "served: text search over persons and organisations" },
  { n: 51, method: "GET", hosted: "/search/v2/{bucket}/help", status: "501", ours: "/search/v2/:flock/help", why: "501: searches the vendor's help centre, not flock data" },
  { n: 52, method: "GET", hosted: "/search/v2/{bucket}/car", status: "served", ours: "/search/v2/:flock/car", why: "served when the flock serves a vehicle type" },
  { n: 53, method: "GET", hosted: "/search/v2/{bucket}/person", status: "served", ours: "/search/v2/:flock/person", why: "served: search persons by fields" },
  { n: 54, method: "GET", hosted: "/segments/v2/{bucket}", status: "served", ours: "/segments/v2/:flock", why: "served: active segments by name" },
  { n: 55, method: "GET", hosted: "/segments/v2/{bucket}/all", status: "served", ours: "/segments/v2/:flock/all", why: "served: every live segment, inactive ones too" },
  { n: 56, method: "POST", hosted: "/segments/v2/{bucket}/create", status: "served", ours: "/segments/v2/:flock/create", why: "served: create a segment, every rule checked first" },
  { n: 57, method: "GET", hosted: "/segments/v2/{bucket}/find", status: "served", ours: "/segments/v2/:flock/find", why: "served: find segments by name" },
  { n: 58, method: "GET", hosted: "/segments/v2/{bucket}/trees", status: "served", ours: "/segments/v2/:flock/trees", why: "served: segments nested under their parents" },
  { n: 59, method: "GET", hosted: "/segments/v2/{bucket}/{view_context}", status: "served", ours: "/segments/v2/:flock/:view_context", why: "served: active segments of a view context (a closed list)" },
  { n: 60, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/config", status: "served", ours: "/segments/v2/:flock/segment/:uid/config", why: "served: a segment's config" },
  { n: 61, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/count", status: "served", ours: "/segments/v2/:flock/segment/:uid/count", why: "served: count a segment's members" },
  { n: 62, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/lookup", status: "served", ours: "/segments/v2/:flock/segment/:uid/lookup", why: "served: look up a segment's members by display value" },
  { n: 63, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/all", status: "served", ours: "/segments/v2/:flock/segment/:uid/all", why: "served: a segment's members, paged" },
  { n: 64, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/all/excel", status: "served", ours: "/segments/v2/:flock/segment/:uid/all/excel", why: "served: members as XLSX into a journal (a task)" },
  { n: 65, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/all/pdf", status: "501", ours: "/segments/v2/:flock/segment/:uid/all/pdf", why: "501: templated PDF reports are not offered" },
  { n: 66, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/all/xlsx", status: "served", ours: "/segments/v2/:flock/segment/:uid/all/xlsx", why: "served: members as XLSX into a journal (a task)" },
  { n: 67, method: "GET", hosted: "/segments/v2/{bucket}/segment/{uid}/all/sync_mailchimp", status: "501", ours: "/segments/v2/:flock/segment/:uid/all/sync_mailchimp", why: "501: email-marketing partner sync is not part of this service" },
  { n: 68, method: "POST", hosted: "/segments/v2/{bucket}/segment/{uid}/action/replace", status: "501", ours: "/segments/v2/:flock/segment/:uid/action/replace", why: "501: the hosted description does not say what replace replaces with" },
  { n: 69, method: "POST", hosted: "/segments/v2/{bucket}/segment/{uid}/action/delete", status: "served", ours: "/segments/v2/:flock/segment/:uid/action/delete", why: "served: delete a segment's members (a task; safe_mode counts)" },
  { n: 70, method: "GET", hosted: "/segments/v2/{bucket}/fieldset", status: "served", ours: "/segments/v2/:flock/fieldset", why: "served: fieldsets" },
  { n: 71, method: "POST", hosted: "/segments/v2/{bucket}/fieldset", status: "served", ours: "/segments/v2/:flock/fieldset", why: "served: save a fieldset" },
  { n: 72, method: "DELETE", hosted: "/segments/v2/{bucket}/fieldset", status: "served", ours: "/segments/v2/:flock/fieldset", why: "served: delete a fieldset (uid in the query)" },
  { n: 73, method: "GET", hosted: "/segments/v2/{bucket}/fieldset/{uid}", status: "served", ours: "/segments/v2/:flock/fieldset/:uid", why: "served: one fieldset" },
  { n: 74, method: "POST", hosted: "/selfservice/v2/{bucket}/form_response", status: "served", ours: "/selfservice/v2/:flock/form_response", why: "served: start empty form responses (1..50)" },
  { n: 75, method: "PUT", hosted: "/selfservice/v2/{bucket}/form_response/{uid}/allocate", status: "served", ours: "/selfservice/v2/:flock/form_response/:uid/allocate", why: "served: allocate a form response to a contact" },
  { n: 76, method: "DELETE", hosted: "/selfservice/v2/{bucket}/form_response/{uid}/allocate", status: "served", ours: "/selfservice/v2/:flock/form_response/:uid/allocate", why: "served: release a form response (contact_ref null)" },
  { n: 77, method: "GET", hosted: "/selfservice-pdf/v2/{bucket}/{resource_type}/{uid}/invoice/{signature}/pdf", status: "served", ours: "/selfservice-pdf/v2/:flock/:resource_type/:uid/invoice/:signature/pdf", why: "served: an invoice as PDF through its signed link" },
  { n: 78, method: "GET", hosted: "/selfservice-pdf/v2/{bucket}/giving/taxyear/{startyear}/{endyear}/pdf", status: "served", ours: "/selfservice-pdf/v2/:flock/giving/taxyear/:startyear/:endyear/pdf", why: "served: a giving statement for a tax year as PDF" },
  { n: 79, method: "GET", hosted: "/selfservice-pdf/v2/{bucket}/member/{uid}/card", status: "served", ours: "/selfservice-pdf/v2/:flock/member/:id/card", why: "served: a signed member card" },
  { n: 80, method: "GET", hosted: "/public/v2/{bucket}/web", status: "501", ours: "/public/v2/:flock/web", why: "501: the vendor's website pages; no page records exist here" },
];

/** The gateway surfaces: every route under these prefixes is one of the 80 or a listed extra. */
export const GATEWAY_PREFIXES: readonly string[] = [
  "/events/v2/",
  "/segments/v2/",
  "/invoices/v2/",
  "/internal/v2/",
  "/public/v2/",
  "/search/v2/",
  "/audit/v2/",
  "/selfservice/v2/",
  "/selfservice-pdf/v2/",
];

/** Routes on the gateway surfaces beyond the 80: aliases and paths of our own. */
export const GATEWAY_EXTRA_ROUTES: readonly GatewayExtraRoute[] = [
  { method: "GET", ours: "/search/v2/:flock/global", why: "alias of the global search" },
  { method: "GET", ours: "/selfservice/v2/:flock/reservations", why: "a member's own reservations (ours)" },
  { method: "GET", ours: "/selfservice/v2/:flock/reservation/:id", why: "a member's own reservation (ours)" },
  { method: "DELETE", ours: "/selfservice/v2/:flock/reservation/:id", why: "a member cancels a reservation (ours)" },
  { method: "GET", ours: "/events/v2/:flock/bookings", why: "alias of the events list (spec 1.3)" },
  { method: "GET", ours: "/events/v2/:flock/bookings/:uid/attendance", why: "alias the hosted description names (spec, vendor slips)" },
  { method: "PUT", ours: "/events/v2/:flock/bookings/:uid/attendance", why: "alias the hosted description names (spec, vendor slips)" },
  { method: "GET", ours: "/segments/v2/:flock/segment/:uid/all/csv", why: "a segment's members as CSV, streamed (issue 21 asks for CSV beside XLSX; the hosted list has none)" },
  { method: "DELETE", ours: "/segments/v2/:flock/fieldset/:uid", why: "delete a fieldset by path (the hosted description declares a uid path parameter its path lacks; both forms are served)" },
];

/**
 * A route pattern with its parameter names blanked, so `/:flock/booking/:uid` and
 * `/:bucket/booking/:id` compare equal; trailing slashes are dropped.
 *
 * @example
 * routeShape("/events/v2/:flock/booking/:uid/") // "/events/v2/:/booking/:"
 */
export function routeShape(pattern: string): string {
  return pattern.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, ":").replace(/\/+$/, "");
}

/**
 * The markdown table docs/hosted-compat.md carries, one row per operation.
 *
 * @example
 * hostedOperationRow(HOSTED_OPERATIONS[0]!) // "| 1 | GET | `/api/v2/{bucket}/...` | served | `/api/v2/:flock/:type/:id/avatar` | ... |"
 */
export function hostedOperationRow(op: HostedOperation): string {
  const status = op.status === "planned" ? `planned (${op.target === "501" ? "501" : "served"})` : op.status;
  return `| ${op.n} | ${op.method} | \`${op.hosted}\` | ${status} | ${op.ours ? `\`${op.ours}\`` : "-"} | ${op.why} |`;
}
