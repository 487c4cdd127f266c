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

function _seg(s: string): string {
  return encodeURIComponent(s);
}
