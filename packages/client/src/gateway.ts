/**
 * @module gateway
 * The hosted service's gateways as client methods: events (`/events/v2`) and invoices
 * (`/invoices/v2`, and their PDFs under `/selfservice-pdf/v2`); segments are in ./segments.
 * Answers are typed from the server's
 * OpenAPI document.
 */
import type { RequestOptions } from "./http.js";
import type { Schemas } from "./types.js";

type Request = <T>(method: string, path: string, o?: RequestOptions) => Promise<T>;

/** Paging of the gateway lists: `page` from 1, `page_size` 1..1500. */
export interface GatewayPaging {
  page?: number;
  page_size?: number;
}

/** The states of `bookings/{state}`. */
export type BookingState = "all" | "future" | "past" | "running" | "current" | "draft";

/** The attendance statuses the gateway records. */
export type AttendanceStatus = "invited" | "accepted" | "declined" | "attended" | "no-show";

/** The events gateway of one flock. */
export interface EventsApi {
  /** Events from 14 days ago to 90 days ahead (or in a state), one page. */
  list(opts?: GatewayPaging & { state?: BookingState }): Promise<Schemas["EventList"]>;
  /** One event: every stored field plus the computed ones. */
  get(bookingId: string): Promise<Schemas["EventPacket"]>;
  /** The event's ticket types with their stock. */
  availableTickets(bookingId: string): Promise<Schemas["AvailableTickets"]["available_tickets"]>;
  /** Every ticket of the event, cancelled ones included. */
  tickets(bookingId: string): Promise<Schemas["EventTickets"]>;
  /** The event's attendance: one session per counted ticket. */
  attendance(bookingId: string): Promise<Schemas["EventAttendance"]>;
  /** Sets one attendee's attendance on their tickets of the event. */
  setAttendance(bookingId: string, personUri: string, status: AttendanceStatus): Promise<Schemas["EventAttendanceUpdated"]>;
  /** One event as its summary packet. */
  summary(bookingId: string): Promise<Schemas["EventSummary"]>;
  /** The event's orders, by buyer URI. */
  orders(bookingId: string): Promise<Schemas["EventOrders"]>;
  /** A person's orders, newest event first. */
  personOrders(personId: string): Promise<Schemas["ContactOrders"]>;
  /** One contact's order for the event (`contact.type` defaults to person). */
  order(bookingId: string, contact: OrderContact): Promise<Schemas["EventOrder"]>;
  /** Deletes a contact's order: its live tickets, through the engine. */
  deleteOrder(bookingId: string, contact: OrderContact): Promise<Schemas["EventOrderDeleted"]>;
  /** The form responses of an order's buyer and attendees for the event. */
  orderQuestions(bookingId: string, contact: OrderContact): Promise<Schemas["EventOrderQuestions"]>;
  /** Sets every ticket's start_date to the event's. */
  rebaseTickets(bookingId: string): Promise<Schemas["EventRebaseTickets"]>;
  /** Creates the missing form responses of the event's buyers and attendees. */
  rebaseQuestions(bookingId: string): Promise<Schemas["EventRebaseQuestions"]>;
  /** The attendance list as a file (XLSX unless `format: "csv"`). */
  exportAttendance(bookingId: string, opts?: EventExportOptions<AttendanceFieldset>): Promise<Blob>;
  /** The orders as a file, one row per ticket (XLSX unless `format: "csv"`). */
  exportOrders(bookingId: string, opts?: EventExportOptions<OrdersFieldset>): Promise<Blob>;
  /** What the orders export would hold: its columns and number of rows. */
  exportOrdersMeta(bookingId: string, opts?: { fieldsets?: OrdersFieldset[] }): Promise<Schemas["EventExportMeta"]>;
}

/** The buyer of an order: a person (default) or an organisation. */
export interface OrderContact {
  id: string;
  type?: "person" | "organisation";
}

/** The column groups of the attendance export. */
export type AttendanceFieldset = "core" | "attendance" | "communications" | "emergency" | "membership" | "profile" | "mailing";
/** The column groups of the orders export. */
export type OrdersFieldset = "core" | "communications" | "emergency" | "membership" | "order" | "profile" | "mailing";

/** An export's column groups (default core) and file format (default xlsx). */
export interface EventExportOptions<F extends string> {
  fieldsets?: F[];
  format?: "xlsx" | "csv";
}

/** The invoice types. */
export type InvoiceType = "invoice" | "membership" | "order";

/** The invoices gateway of one flock. */
export interface InvoicesApi {
  /** One invoice (a key, or a member token for the member's own). */
  get(type: InvoiceType, id: string): Promise<Schemas["Invoice"]>;
  /** One invoice through its signed link (no key is sent). */
  signed(type: InvoiceType, id: string, signature: string): Promise<Schemas["Invoice"]>;
  /**
   * The invoice as PDF bytes through its signed link (no key is sent): `resourceType` is the
   * record's type (`invoice`, `member`, `membership`, `ticket`), as in the answer's `links[0].href`.
   */
  pdf(resourceType: InvoicePdfResourceType, id: string, signature: string, opts?: { template?: "invoice-a4" | "sheep-invoice-a4" }): Promise<Uint8Array>;
  /**
   * A giving statement for the tax year starting in `startYear`, as PDF bytes: the member's
   * own with a member token; a core key names the person (`personUri`).
   */
  givingStatement(startYear: number, opts?: { personUri?: string }): Promise<Uint8Array>;
}

/** The record types of the invoice PDF path. */
export type InvoicePdfResourceType = "invoice" | "member" | "membership" | "ticket";

/** The events gateway over `request`. */
export function createEventsApi(request: Request, flock: string): EventsApi {
  const base = `/events/v2/${_seg(flock)}`;
  return {
    list: ({ state, ...paging } = {}) => request("GET", state ? `${base}/bookings/${_seg(state)}` : base, { query: paging }),
    get: (id) => request("GET", `${base}/booking/${_seg(id)}`),
    availableTickets: async (id) => (await request<Schemas["AvailableTickets"]>("GET", `${base}/booking/${_seg(id)}/available_tickets`)).available_tickets,
    tickets: (id) => request("GET", `${base}/booking/${_seg(id)}/tickets/all`),
    attendance: (id) => request("GET", `${base}/booking/${_seg(id)}/attendance/all`),
    setAttendance: (id, personUri, status) => request("PUT", `${base}/booking/${_seg(id)}/attendance`, { json: { person_uri: personUri, status } }),
    summary: (id) => request("GET", `${base}/booking/${_seg(id)}/summary`),
    orders: (id) => request("GET", `${base}/booking/${_seg(id)}/orders`),
    personOrders: (id) => request("GET", `${base}/person/${_seg(id)}/orders`),
    order: (id, contact) => request("GET", _orderPath(base, id, contact)),
    deleteOrder: (id, contact) => request("DELETE", _orderPath(base, id, contact)),
    orderQuestions: (id, contact) => request("GET", `${_orderPath(base, id, contact)}/questions`),
    rebaseTickets: (id) => request("PUT", `${base}/booking/${_seg(id)}/rebase/tickets`),
    rebaseQuestions: (id) => request("PUT", `${base}/booking/${_seg(id)}/rebase/questions`),
    exportAttendance: (id, opts = {}) => _file(request, `${base}/booking/${_seg(id)}/attendance/export`, opts),
    exportOrders: (id, opts = {}) => _file(request, `${base}/booking/${_seg(id)}/orders/export`, opts),
    exportOrdersMeta: (id, opts = {}) => request("GET", `${base}/booking/${_seg(id)}/orders/export/meta`, { query: { fieldset: opts.fieldsets?.join(",") } }),
  };
}

/** The invoices gateway; `signedRequest` sends no key. */
export function createInvoicesApi(request: Request, signedRequest: Request, flock: string): InvoicesApi {
  const base = `/invoices/v2/${_seg(flock)}`;
  const pdfBase = `/selfservice-pdf/v2/${_seg(flock)}`;
  const bytes = async (answer: Promise<Response>) => new Uint8Array(await (await answer).arrayBuffer());
  return {
    get: (type, id) => request("GET", `${base}/${_seg(type)}/${_seg(id)}`),
    signed: (type, id, signature) => signedRequest("GET", `${base}/${_seg(type)}/${_seg(id)}/${_seg(signature)}`),
    pdf: (resourceType, id, signature, o = {}) =>
      bytes(signedRequest("GET", `${pdfBase}/${_seg(resourceType)}/${_seg(id)}/invoice/${_seg(signature)}/pdf`, { raw: true, accept: "application/pdf", query: { template: o.template } })),
    givingStatement: (startYear, o = {}) =>
      bytes(request("GET", `${pdfBase}/giving/taxyear/${startYear}/${startYear + 1}/pdf`, { raw: true, accept: "application/pdf", query: { person_uri: o.personUri } })),
  };
}

// --- internal ---

function _orderPath(base: string, bookingId: string, contact: OrderContact): string {
  return `${base}/${_seg(contact.type ?? "person")}/${_seg(contact.id)}/order/${_seg(bookingId)}`;
}

async function _file(request: Request, path: string, opts: EventExportOptions<string>): Promise<Blob> {
  const res = await request<Response>("GET", path, { raw: true, accept: "*/*", query: { fieldset: opts.fieldsets?.join(","), format: opts.format } });
  return res.blob();
}

function _seg(s: string): string {
  return encodeURIComponent(s);
}
