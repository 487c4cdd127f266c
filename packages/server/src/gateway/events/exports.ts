/**
 * @module gateway/events/exports
 * The attendance and orders exports of an event (spec v2-gateway section 6): column groups
 * picked by `fieldset`, rows built a page of tickets at a time. The tickets are walked with
 * the storage's cursor (an indexed filter on `booking_ref`), and the people a page names
 * (and their memberships, when asked for) are read per page, so an export of any size holds
 * one page in memory and its first bytes leave before the last ticket is read. Rows follow
 * the tickets' creation order (sorting by name would need every ticket first).
 */
import { badRequest, isActiveOn, parseListQuery, primaryEntry, type StoredRecord } from "@records-service/core";
import type { TableCell, TableColumn, TableFormat } from "../../exports/table-file.js";
import type { GatewayParams } from "../params.js";
import { readAll, refOf, uriOf } from "../read-all.js";
import { compareTicketTypes, currencyOf, dateOf, numberOf } from "./packet.js";
import { recordsByUri } from "./read.js";
import { ticketCounts } from "./stock.js";
import { attendeeOf, session } from "./tickets.js";
import type { RecordQueries } from "../../http/record-queries.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The column groups, in the order columns appear. */
const COLUMN_GROUPS: Readonly<Record<string, readonly TableColumn[]>> = {
  core: [
    { field: "attendee_name", label: "Attendee name" },
    { field: "attendee_email", label: "Email" },
    { field: "ticket_type", label: "Ticket type" },
    { field: "ticket_uri", label: "Ticket URI" },
    { field: "ticket_status", label: "Status" },
  ],
  attendance: [
    { field: "attendance", label: "Attendance" },
    { field: "last_updated", label: "Last updated" },
  ],
  communications: [
    { field: "telephone", label: "Telephone" },
    { field: "address_lines", label: "Address" },
    { field: "locality", label: "Locality" },
    { field: "postal_code", label: "Postal code" },
    { field: "country", label: "Country" },
  ],
  emergency: [
    { field: "emergency_contact_details", label: "Emergency contact" },
    { field: "emergency_contact_details_2", label: "Emergency contact 2" },
  ],
  membership: [
    { field: "membership_number", label: "Membership number" },
    { field: "membership_plan", label: "Membership plan" },
    { field: "membership_end_date", label: "Membership end date" },
  ],
  order: [
    { field: "buyer", label: "Buyer" },
    { field: "buyer_uri", label: "Buyer URI" },
    { field: "amount", label: "Amount" },
    { field: "currency", label: "Currency" },
    { field: "purchase_date", label: "Purchase date" },
  ],
  profile: [
    { field: "job_title", label: "Job title" },
    { field: "organisation", label: "Organisation" },
    { field: "date_of_birth", label: "Date of birth" },
  ],
  mailing: [
    { field: "email_opt_out", label: "Email opt-out" },
    { field: "comms_permission", label: "Communication permissions" },
  ],
};

/** Which export: `attendance` (one row per counted ticket) or `orders` (one row per live ticket). */
export type ExportKind = "attendance" | "orders";

/** The fieldsets each export accepts. */
export const EXPORT_FIELDSETS: Readonly<Record<ExportKind, readonly string[]>> = {
  attendance: ["core", "attendance", "communications", "emergency", "membership", "profile", "mailing"],
  orders: ["core", "communications", "emergency", "membership", "order", "profile", "mailing"],
};

/** The export file formats (`format`, default xlsx). */
const EXPORT_FORMATS: readonly TableFormat[] = ["xlsx", "csv"];

/** Tickets read per step of an export, once under way. */
const EXPORT_PAGE = 500;

/** Tickets of the first step: small, so the file's first bytes leave soon; steps double from it. */
const EXPORT_FIRST_PAGE = 50;

/**
 * The fieldsets asked for (`?fieldset=a&fieldset=b` or `a,b`), each once, in the groups'
 * order; `core` when none. Another word is a 400 naming the accepted ones.
 */
export function readFieldsets(params: GatewayParams, kind: ExportKind): string[] {
  const accepted = EXPORT_FIELDSETS[kind];
  const asked = params.all("fieldset").flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== "");
  const bad = asked.find((f) => !accepted.includes(f));
  if (bad !== undefined) throw badRequest("invalid fieldset", `${JSON.stringify(bad.slice(0, 40))} is not a fieldset of the ${kind} export; use one or more of ${accepted.join(", ")}`);
  const chosen = new Set(asked.length > 0 ? asked : ["core"]);
  return accepted.filter((f) => chosen.has(f));
}

/** `format`: xlsx (default) or csv; another is a 400. */
export function readExportFormat(params: GatewayParams): TableFormat {
  const raw = params.get("format")?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "xlsx";
  if ((EXPORT_FORMATS as readonly string[]).includes(raw)) return raw as TableFormat;
  throw badRequest("invalid format", `format must be one of ${EXPORT_FORMATS.join(", ")}, not ${JSON.stringify(raw.slice(0, 20))}`);
}

/** The columns of the chosen fieldsets. */
export function exportColumns(fieldsets: readonly string[]): TableColumn[] {
  return fieldsets.flatMap((f) => COLUMN_GROUPS[f] ?? []);
}

/** The event's ticket types (live `bookable`s naming it, and those it lists), in their order. */
export async function readTicketTypes(engine: RouteEngine, booking: StoredRecord): Promise<StoredRecord[]> {
  const uri = uriOf(booking);
  const found = new Map((await readAll(engine, booking.flock, "bookable", [["booking_ref", uri]])).map((t) => [uriOf(t), t]));
  const listed = (Array.isArray(booking.data.bookable_refs) ? booking.data.bookable_refs : []).map(refOf).filter((u): u is string => u !== undefined);
  for (const [u, r] of await recordsByUri(engine, booking.flock, listed)) if (r.type === "bookable") found.set(u, r);
  return [...found.values()].sort(compareTicketTypes);
}

/**
 * The booking's live tickets, a page at a time, in creation order (the record reader's cursor
 * walk over the indexed `booking_ref` filter); pages grow from `first` to `step` tickets.
 */
async function* ticketPages(engine: RouteEngine, booking: StoredRecord, step = EXPORT_PAGE, first = EXPORT_FIRST_PAGE): AsyncGenerator<StoredRecord[]> {
  const { clock } = engine.context;
  const q = parseListQuery([["booking_ref", uriOf(booking)]], { surface: "v2", now: clock.now() });
  let after: string | null = null;
  let size = Math.min(first, step);
  do {
    const page = await engine.read.scanRecords(booking.flock, "ticket", { filters: q.filters, mode: q.mode, states: q.states }, after, size);
    size = Math.min(size * 2, step);
    const live = page.records.filter((r) => r.state === "updated");
    if (live.length > 0) yield live;
    after = page.cursor;
  } while (after !== null);
}

/** How many rows the export holds: the booking's live tickets (orders) or counted ones (attendance). */
export async function countExportRows(engine: RouteEngine, booking: StoredRecord, kind: ExportKind): Promise<number> {
  let n = 0;
  for await (const page of ticketPages(engine, booking, EXPORT_PAGE, EXPORT_PAGE)) n += kind === "orders" ? page.length : page.filter(ticketCounts).length;
  return n;
}

/**
 * The export's rows, a page of tickets at a time: `attendance` one per counted ticket,
 * `orders` one per live ticket; only the chosen fieldsets' values are read.
 */
export async function* exportRows(
  engine: RouteEngine,
  queries: Pick<RecordQueries, "membershipsOf">,
  booking: StoredRecord,
  types: readonly StoredRecord[],
  kind: ExportKind,
  fieldsets: readonly string[],
  today: string,
): AsyncGenerator<Record<string, TableCell>> {
  const typeByUri = new Map(types.map((t) => [uriOf(t), t]));
  const wantMembership = fieldsets.includes("membership");
  for await (const page of ticketPages(engine, booking)) {
    const tickets = kind === "attendance" ? page.filter(ticketCounts) : page;
    const uris = new Set<string>();
    for (const t of tickets) for (const u of [attendeeOf(t), refOf(t.data.buyer_ref), refOf(t.data.bookable_ref)]) if (u && !typeByUri.has(u)) uris.add(u);
    const named = new Map([...typeByUri, ...(await recordsByUri(engine, booking.flock, uris))]);
    const attendees = [...new Set(tickets.map(attendeeOf).filter((u): u is string => u !== null))];
    const memberships = wantMembership ? await queries.membershipsOf(booking.flock, attendees) : new Map<string, StoredRecord[]>();
    const plans = wantMembership ? await recordsByUri(engine, booking.flock, [...memberships.values()].flatMap((ms) => ms.map((m) => refOf(m.data.membership_type)).filter((u): u is string => u !== undefined))) : new Map<string, StoredRecord>();
    for (const t of tickets) {
      const s = session(t, named);
      const attendee = attendeeOf(t);
      const person = attendee ? named.get(attendee) : undefined;
      const buyer = refOf(t.data.buyer_ref);
      const type = refOf(t.data.bookable_ref);
      const ms = attendee ? (memberships.get(attendee) ?? []) : [];
      const current = ms.find((m) => isActiveOn(m, today)) ?? ms[0];
      const planUri = current ? refOf(current.data.membership_type) : undefined;
      const plan = planUri ? plans.get(planUri) : undefined;
      yield {
        attendee_name: s.attendee_name as string | null,
        attendee_email: s.attendee_email as string | null,
        ticket_type: type ? (s.ticket as string | null) : null,
        ticket_uri: uriOf(t),
        ticket_status: typeof t.data.status === "string" && t.data.status !== "" ? t.data.status : "booked",
        attendance: s.status as string,
        last_updated: t.lastUpdated,
        telephone: person ? (primaryEntry(_list(person.data.telephone))?.value ?? null) : null,
        ..._values(person, ["locality", "postal_code", "country", "emergency_contact_details", "emergency_contact_details_2", "job_title", "organisation", "date_of_birth", "email_opt_out"]),
        address_lines: person ? _joined(person.data.address_lines) : null,
        comms_permission: person ? _joined(person.data.comms_permission) : null,
        membership_number: current ? _cell(current.data.membership_number) : null,
        membership_plan: plan ? (typeof plan.data.name === "string" ? plan.data.name : plan.displayValue) : current ? _cell(current.data.membership_type) : null,
        membership_end_date: current ? dateOf(current.data.end_date) : null,
        buyer: buyer ? (named.get(buyer)?.displayValue ?? buyer) : null,
        buyer_uri: buyer ?? null,
        amount: numberOf(t.data.amount) ?? null,
        currency: currencyOf(t.data.currency),
        purchase_date: dateOf(t.data.purchase_date) ?? t.created.slice(0, 10),
      };
    }
  }
}

// --- internal ---

function _list(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : typeof v === "string" ? [v] : [];
}

/** A list field as one cell: its entries' values (the part before `;label`), comma-separated. */
function _joined(v: unknown): string | null {
  const entries = _list(v).map((e) => e.split(";")[0]!.trim()).filter((e) => e !== "");
  return entries.length > 0 ? entries.join(", ") : null;
}

/** The person's scalar fields as cells (null when absent or not a scalar). */
function _values(person: StoredRecord | undefined, fields: readonly string[]): Record<string, TableCell> {
  return Object.fromEntries(fields.map((f) => [f, person ? _cell(person.data[f]) : null]));
}

function _cell(v: unknown): TableCell {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : null;
}
