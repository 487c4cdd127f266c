/**
 * @module gateway/events/questions
 * The questions of an event's orders (spec v2-gateway section 6): the `form_response`
 * records whose `context_ref` holds the booking, for the order's buyer (role `buyer`) and
 * attendees (role `attendee`), with their answers flat, per question and per section of the
 * form; and `rebase/questions`, which creates the missing responses to the booking's
 * `order_form_ref` (one per buyer) and `attendee_form_ref` (one per attendee).
 *
 * A form record describes its questions in `fields` (a list of `{field, label, form_type,
 * required, marks_available}`; `key` or `name` may stand for `field`, `question` for
 * `label`) and optionally groups them in `sections` (a list of `{title, fields}`, the fields
 * as keys or as such objects). Answers a form does not describe still show, named by key.
 */
import { notFound, type StoredRecord } from "@records-service/core";
import { referencing, refOf, uriOf } from "../read-all.js";
import { recordsByUri } from "./read.js";
import type { BookingData } from "./packet.js";
import { ticketCounts } from "./stock.js";
import { attendeeOf } from "./tickets.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The types a form reference of the booking may name. */
const FORM_TYPES: readonly string[] = ["form", "sheep_form"];

/** The live `form_response` records whose `context_ref` holds the booking (a URI or a list of them). */
async function bookingResponses(engine: RouteEngine, booking: StoredRecord): Promise<StoredRecord[]> {
  const uri = uriOf(booking);
  return (await referencing(engine, booking.flock, uri)).filter((r) => r.type === "form_response" && _contexts(r).includes(uri));
}

/**
 * The vendor's `OrderQuestions` for the order of `buyer` over `tickets` (its live tickets).
 *
 * @example
 * await orderQuestions(engine, data, "/demo/person/…/", tickets)
 */
export async function orderQuestions(engine: RouteEngine, data: BookingData, buyer: string, tickets: readonly StoredRecord[]): Promise<Record<string, unknown>> {
  const { booking } = data;
  const attendees = new Set(tickets.filter(ticketCounts).map(attendeeOf).filter((u): u is string => u !== null));
  const mine = (await bookingResponses(engine, booking)).filter((r) => {
    const contact = refOf(r.data.contact_ref);
    return contact !== undefined && (contact === buyer || attendees.has(contact));
  });
  const named = await recordsByUri(engine, booking.flock, mine.flatMap((r) => [refOf(r.data.contact_ref), refOf(r.data.form_ref)].filter((u): u is string => u !== undefined)));
  return {
    booking_uri: uriOf(booking),
    booking_display_value: booking.displayValue,
    buyer_uri: buyer,
    responses: mine.map((r) => {
      const contact = refOf(r.data.contact_ref)!;
      const formUri = refOf(r.data.form_ref);
      const form = formUri ? named.get(formUri) : undefined;
      return {
        uri: uriOf(r),
        role: contact === buyer ? "buyer" : "attendee",
        contact_uri: contact,
        contact_display_value: named.get(contact)?.displayValue ?? null,
        form_ref: formUri ?? null,
        status: typeof r.data.status === "string" ? r.data.status : null,
        response: responseViews(r, form),
      };
    }),
  };
}

/** `{flat, sections, simple}` of one response, described by its form when there is one. */
function responseViews(response: StoredRecord, form: StoredRecord | undefined): Record<string, unknown> {
  const flat = _object(response.data.response);
  const defs = _questions(form);
  const formUri = form ? uriOf(form) : null;
  const simple = Object.entries(flat)
    .filter(([, answer]) => answer !== null && answer !== undefined && answer !== "")
    .map(([key, answer]) => {
      const def = defs.get(key);
      return { field: key, question: def?.label ?? key, answer, form_type: def?.form_type ?? null, required: def?.required ?? false, marks_available: def?.marks_available ?? null, uri: formUri };
    });
  const sections = _sections(form);
  if (sections.length === 0) return { flat, sections: [{ title: form?.displayValue ?? null, questions: simple }], simple };
  const placed = new Set(sections.flatMap((s) => s.fields));
  const grouped = sections.map((s) => ({ title: s.title, questions: simple.filter((q) => s.fields.includes(q.field)) }));
  const rest = simple.filter((q) => !placed.has(q.field));
  return { flat, sections: rest.length > 0 ? [...grouped, { title: null, questions: rest }] : grouped, simple };
}

/**
 * Creates the missing responses for the booking's forms, each through `writer` (the engine
 * acting for the caller): for `order_form_ref` one per buyer, for `attendee_form_ref` one per
 * attendee, of its counted tickets. A form reference that names no live form is a 404 before
 * anything is written.
 */
export async function rebaseQuestions(engine: RouteEngine, writer: RouteEngine, data: BookingData): Promise<{ changes: { uri: string }[]; unchanged: number }> {
  const { booking } = data;
  const counted = data.tickets.filter(ticketCounts);
  const wanted: [string, string[]][] = [];
  const orderForm = refOf(booking.data.order_form_ref);
  const attendeeForm = refOf(booking.data.attendee_form_ref);
  if (orderForm) wanted.push([orderForm, _distinct(counted.map((t) => refOf(t.data.buyer_ref) ?? null))]);
  if (attendeeForm) wanted.push([attendeeForm, _distinct(counted.map(attendeeOf))]);
  if (wanted.length === 0) return { changes: [], unchanged: 0 };
  const forms = await recordsByUri(engine, booking.flock, wanted.map(([f]) => f));
  for (const [form] of wanted) {
    if (!FORM_TYPES.includes(forms.get(form)?.type ?? "")) throw notFound("form not found", `the booking's form ${form} is not a live form of flock ${booking.flock}`);
  }
  const existing = new Set((await bookingResponses(engine, booking)).map((r) => `${refOf(r.data.form_ref)} ${refOf(r.data.contact_ref)}`));
  const changes: { uri: string }[] = [];
  let unchanged = 0;
  for (const [form, contacts] of wanted) {
    for (const contact of contacts) {
      const key = `${form} ${contact}`;
      if (existing.has(key)) {
        unchanged++;
        continue;
      }
      existing.add(key);
      const made = await writer.create(booking.flock, "form_response", { form_ref: form, status: "started", contact_ref: contact, context_ref: [uriOf(booking)] });
      changes.push({ uri: uriOf(made) });
    }
  }
  return { changes, unchanged };
}

// --- internal ---

interface _Question {
  label?: string;
  form_type?: string;
  required?: boolean;
  marks_available?: number;
}

function _contexts(r: StoredRecord): string[] {
  const raw = r.data.context_ref;
  return (Array.isArray(raw) ? raw : [raw]).map(refOf).filter((u): u is string => u !== undefined);
}

function _object(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function _key(def: Record<string, unknown>): string | undefined {
  const k = def.field ?? def.key ?? def.name;
  return typeof k === "string" && k !== "" ? k : undefined;
}

/** The form's question definitions by key, from `fields` and from the objects in `sections`. */
function _questions(form: StoredRecord | undefined): Map<string, _Question> {
  const out = new Map<string, _Question>();
  if (!form) return out;
  const sectionFields = (Array.isArray(form.data.sections) ? form.data.sections : []).flatMap((s) => (Array.isArray(_object(s).fields) ? (_object(s).fields as unknown[]) : []));
  for (const raw of [...(Array.isArray(form.data.fields) ? form.data.fields : []), ...sectionFields]) {
    const def = _object(raw);
    const key = _key(def);
    if (!key || out.has(key)) continue;
    const label = def.label ?? def.question;
    out.set(key, {
      ...(typeof label === "string" ? { label } : {}),
      ...(typeof def.form_type === "string" ? { form_type: def.form_type } : {}),
      ...(typeof def.required === "boolean" ? { required: def.required } : {}),
      ...(typeof def.marks_available === "number" ? { marks_available: def.marks_available } : {}),
    });
  }
  return out;
}

function _sections(form: StoredRecord | undefined): { title: string | null; fields: string[] }[] {
  if (!form || !Array.isArray(form.data.sections)) return [];
  return form.data.sections.map((raw) => {
    const s = _object(raw);
    const title = s.title ?? s.name;
    const fields = (Array.isArray(s.fields) ? s.fields : []).map((f) => (typeof f === "string" ? f : _key(_object(f)))).filter((k): k is string => k !== undefined);
    return { title: typeof title === "string" ? title : null, fields };
  });
}

function _distinct(uris: (string | null)[]): string[] {
  return [...new Set(uris.filter((u): u is string => u !== null))];
}
