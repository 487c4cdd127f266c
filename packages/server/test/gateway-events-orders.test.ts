/**
 * The events gateway, spec v2-gateway section 6, on every storage adapter: summary, orders
 * (by event, by person, one, delete), order questions, rebase tickets and questions, the
 * attendance and orders exports (read back with exceljs) and the export meta; auth order
 * before any record is read, bad input refused with nothing written, deleted records 404.
 */
import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

/** Today on the test clock is 2026-01-15. */
async function seed(t: TestApp) {
  const make = (type: string, data: Record<string, unknown>) => t.engine.create("alpha", type, data).then((r) => r.id);
  const ada = await make("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], telephone: ["+44 1;mobile"], locality: "London", job_title: "Analyst", emergency_contact_details: "Byron" });
  const grace = await make("person", { first_name: "Grace", last_name: "Hopper", email: ["grace@example.org"] });
  const carl = await make("person", { first_name: "Carl", last_name: "Zeiss" });
  const gala = await make("booking", { title: "Gala", start_date: "2026-02-01", start_time: "19:30" });
  const later = await make("booking", { title: "Later", start_date: "2026-03-01" });
  const gone = await make("booking", { title: "Deleted", start_date: "2026-02-02" });
  await t.engine.delete("alpha", "booking", gone);
  const g = `/alpha/booking/${gala}/`;
  const p = (id: string) => `/alpha/person/${id}/`;
  const adult = await make("bookable", { booking_ref: g, name: "Adult", amount: 12.5, total: 10, sort_order: 1 });
  const child = await make("bookable", { booking_ref: g, name: "Child", amount: 0, sort_order: 2 });
  const ticket = (data: Record<string, unknown>) => make("ticket", { booking_ref: g, ...data });
  const tk = {
    adaAdult: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: p(ada), quantity: 2, amount: 25, purchase_date: "2026-01-03" }),
    graceGuest: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: p(ada), person_ref: p(grace), status: "reserved", amount: 12.5, purchase_date: "2026-01-02" }),
    cancelled: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: p(carl), quantity: 3, status: "cancelled" }),
    refunded: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: p(carl), status: "refunded" }),
    deleted: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: p(carl) }),
    child: await ticket({ bookable_ref: `/alpha/bookable/${child}/`, buyer_ref: p(ada), attendee_name: "Kid" }),
  };
  await t.engine.delete("alpha", "ticket", tk.deleted);
  const laterTicket = await make("ticket", { booking_ref: `/alpha/booking/${later}/`, buyer_ref: p(ada), amount: 5, currency: "EUR" });
  await make("payment", { ticket_ref: `/alpha/ticket/${tk.adaAdult}/`, amount: 20, payment_date: "2026-01-10" });
  await make("payment", { booking_ref: g, person_ref: p(ada), amount: 5, payment_date: "2026-03-01" });
  await make("payment", { ticket_ref: `/alpha/ticket/${tk.adaAdult}/`, amount: 100, status: "refunded" });
  return { ada, grace, carl, gala, later, gone, adult, child, tk, laterTicket, g, p };
}

const json = async (res: Response) => (await res.json()) as Record<string, any>;

async function sheetOf(res: Response) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe.each(EVERY_ADAPTER)("events gateway, section 6, on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("refuses strangers before reading any record (positive control first)", async () => {
    const t = await setup();
    const s = await seed(t);
    const paths = [
      `/events/v2/alpha/booking/${s.gala}/summary`,
      `/events/v2/alpha/booking/${s.gala}/orders`,
      `/events/v2/alpha/person/${s.ada}/orders`,
      `/events/v2/alpha/person/${s.ada}/order/${s.gala}`,
      `/events/v2/alpha/person/${s.ada}/order/${s.gala}/questions`,
      `/events/v2/alpha/booking/${s.gala}/attendance/export`,
      `/events/v2/alpha/booking/${s.gala}/orders/export`,
      `/events/v2/alpha/booking/${s.gala}/orders/export/meta`,
    ];
    for (const path of paths) {
      const res = await t.call("GET", path, { key: KEYS.alice });
      expect(res.status, path).toBe(200);
      // Read each answer to its end: an export streams, and its rows are read as the body is.
      await res.arrayBuffer();
    }
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "getRecords"), vi.spyOn(t.storage, "listRecords"), vi.spyOn(t.storage, "listReferencing")];
    const writes = vi.spyOn(t.storage, "apply");
    const calls: [string, string][] = [
      ...paths.map((path) => ["GET", path] as [string, string]),
      ["DELETE", `/events/v2/alpha/person/${s.ada}/order/${s.gala}`],
      ["PUT", `/events/v2/alpha/booking/${s.gala}/rebase/tickets`],
      ["PUT", `/events/v2/alpha/booking/${s.gala}/rebase/questions`],
    ];
    for (const [method, path] of calls) {
      for (const [key, status] of [[undefined, 401], ["0".repeat(64), 401], [KEYS.bob, 403], [KEYS.member, 403], [KEYS.expired, 401]] as const) {
        const res = await t.call(method, path, { key });
        expect(res.status, `${method} ${path} ${key}`).toBe(status);
        expect(Object.keys(await json(res))).toEqual(expect.arrayContaining(["title", "description", "error", "type"]));
      }
      expect((await t.call(method, path.replace("/alpha", "/ghost"), { key: KEYS.admin })).status).toBe(404);
    }
    for (const spy of [...reads, writes]) expect(spy).not.toHaveBeenCalled();
  });

  run("summary: the list entry's packet; deleted, unknown and wrong-type ids are 404", async () => {
    const t = await setup();
    const s = await seed(t);
    const summary = await json(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/summary`, { key: KEYS.alice }));
    const entry = (await json(await t.call("GET", "/events/v2/alpha", { key: KEYS.alice }))).bookings.find((b: any) => b.uid === s.gala);
    expect(summary).toEqual(entry);
    expect(summary).toMatchObject({ title: "Gala", start_datetime: "2026-02-01T19:30:00.000000", maximum_ticket_price: 12.5 });
    for (const id of [s.gone, s.ada, "0".repeat(24)]) {
      for (const suffix of ["/summary", "/orders", "/attendance/export", "/orders/export", "/orders/export/meta"]) {
        const res = await t.call("GET", `/events/v2/alpha/booking/${id}${suffix}`, { key: KEYS.alice });
        expect(res.status, `${id}${suffix}`).toBe(404);
        expect(await json(res)).toMatchObject({ type: "not_found", error: "not found" });
      }
    }
  });

  run("bookings/{state}: an unknown state and page_size=abc are 400 in the v2 error shape", async () => {
    const t = await setup();
    await seed(t);
    const bad = await json(await t.call("GET", "/events/v2/alpha/bookings/soon", { key: KEYS.alice }));
    expect(bad).toMatchObject({ title: "invalid state", error: "invalid state", type: "bad_request", description: expect.stringContaining("all, future, past, running, current, draft") });
    const paging = await t.call("GET", "/events/v2/alpha/bookings/all?page_size=abc", { key: KEYS.alice });
    expect(paging.status).toBe(400);
    expect(await json(paging)).toMatchObject({ type: "bad_request", error: expect.stringMatching(/page_size/) });
  });

  run("orders of an event: one per buyer, units by type, totals and payments per currency", async () => {
    const t = await setup();
    const s = await seed(t);
    const body = await json(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/orders`, { key: KEYS.alice }));
    expect(body).toMatchObject({ booking_uri: s.g, number_of_orders: 2, number_of_unpaid_orders: 1, booking: { uid: s.gala } });
    expect(Object.keys(body.buyers)).toEqual([s.p(s.ada), s.p(s.carl)]);
    expect(body.buyers[s.p(s.ada)]).toEqual({
      buyer: s.p(s.ada),
      buyer_index_name: "lovelace, ada",
      attendee_count: 2,
      tickets: 4,
      tickets_as_string: "3 x Adult, 1 x Child",
      order_date: "2026-01-02",
      currencies: ["gbp"],
      // The refunded payment and the one dated after today are not paid.
      order_total: { gbp: { total: 37.5, paid: 20, outstanding: 17.5, processing_fees: 0, fully_paid: false } },
      booking_uri: s.g,
      ticket_uris: [s.tk.adaAdult, s.tk.graceGuest, s.tk.child].map((id) => `/alpha/ticket/${id}/`),
    });
    expect(body.buyers[s.p(s.carl)]).toMatchObject({ tickets: 0, tickets_as_string: "", currencies: [], order_total: {}, attendee_count: 0 });

    // The future payment counts once its day comes.
    t.clock.advance(50 * 86_400_000);
    const later = await json(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/orders`, { key: KEYS.alice }));
    expect(later.buyers[s.p(s.ada)].order_total.gbp).toMatchObject({ paid: 25, outstanding: 12.5 });
  });

  run("a person's orders, newest event first; unknown and deleted persons 404", async () => {
    const t = await setup();
    const s = await seed(t);
    const body = await json(await t.call("GET", `/events/v2/alpha/person/${s.ada}/orders`, { key: KEYS.alice }));
    expect(body.contact_uri).toBe(s.p(s.ada));
    expect(body.orders.map((o: any) => [o.booking_display, o.tickets_as_string])).toEqual([
      ["Later", "1 x Ticket"],
      ["Gala", "3 x Adult, 1 x Child"],
    ]);
    expect(body.orders[0]).toMatchObject({ booking_uri: `/alpha/booking/${s.later}/`, currencies: ["eur"], order_total: { eur: { total: 5, paid: 0, outstanding: 5 } } });
    expect((await json(await t.call("GET", `/events/v2/alpha/person/${s.grace}/orders`, { key: KEYS.alice }))).orders).toEqual([]);
    await t.engine.delete("alpha", "person", s.carl);
    for (const id of [s.carl, s.gala, "0".repeat(24)]) {
      expect((await t.call("GET", `/events/v2/alpha/person/${id}/orders`, { key: KEYS.alice })).status, id).toBe(404);
    }
  });

  run("one order: GET, then DELETE through the engine; no order, other types and deleted records 404 with nothing written", async () => {
    const t = await setup();
    const s = await seed(t);
    const path = `/events/v2/alpha/person/${s.ada}/order/${s.gala}`;
    const order = await json(await t.call("GET", path, { key: KEYS.alice }));
    expect(order).toMatchObject({ buyer: s.p(s.ada), tickets: 4, order_total: { gbp: { total: 37.5, paid: 20 } } });

    const versions = async () => Promise.all(Object.values(s.tk).map(async (id) => (await t.storage.getRecord("alpha", "ticket", id))!.version));
    const before = await versions();
    const org = (await t.engine.create("alpha", "organisation", { name: "Acme" })).id;
    const refusals: [string, string][] = [
      [`/events/v2/alpha/person/${s.grace}/order/${s.gala}`, "no order"],
      [`/events/v2/alpha/organisation/${org}/order/${s.gala}`, "no order"],
      [`/events/v2/alpha/booking/${s.gala}/order/${s.gala}`, "not found"],
      [`/events/v2/alpha/person/${s.gala}/order/${s.gala}`, "not found"],
      [`/events/v2/alpha/person/${s.ada}/order/${s.gone}`, "not found"],
      [`/events/v2/alpha/person/${s.ada}/order/${s.ada}`, "not found"],
    ];
    for (const [p, title] of refusals) {
      for (const method of ["GET", "DELETE"]) {
        const res = await t.call(method, p, { key: KEYS.alice });
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(await json(res)).toMatchObject({ title, error: title, type: "not_found" });
      }
    }
    expect(await versions()).toEqual(before);

    const del = await t.call("DELETE", path, { key: KEYS.alice });
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({
      booking_uri: s.g,
      contact_uri: s.p(s.ada),
      deleted: [s.tk.adaAdult, s.tk.graceGuest, s.tk.child].map((id) => `/alpha/ticket/${id}/`),
      errors: [],
      returned_stock: [`/alpha/bookable/${s.adult}/`],
    });
    for (const id of [s.tk.adaAdult, s.tk.graceGuest, s.tk.child]) expect((await t.storage.getRecord("alpha", "ticket", id))!.state).toBe("deleted");
    expect((await t.call("GET", path, { key: KEYS.alice })).status).toBe(404);
    expect((await t.call("DELETE", path, { key: KEYS.alice })).status).toBe(404);
    const avail = await json(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/available_tickets`, { key: KEYS.alice }));
    expect(avail.available_tickets[0]).toMatchObject({ allocated: 0, reserved: 0, available: 10 });
    // The deletes went through the engine: the ticket's history names the caller.
    const audit = await json(await t.call("GET", `/audit/v2/alpha/ticket/${s.tk.child}/audit`, { key: KEYS.alice }));
    expect(JSON.stringify(audit)).toContain("alice");
  });

  run("order questions: the buyer's and attendees' responses for the event, per question and per section", async () => {
    const t = await setup();
    const s = await seed(t);
    const form = (await t.engine.create("alpha", "form", { name: "Dietary", fields: [{ field: "diet", label: "Dietary needs", form_type: "text", required: true, marks_available: 2 }], sections: [{ title: "Food", fields: ["diet"] }] })).id;
    const formUri = `/alpha/form/${form}/`;
    const respond = (contact: string, context: string, response: Record<string, unknown>) =>
      t.engine.create("alpha", "form_response", { form_ref: formUri, contact_ref: contact, context_ref: [context], status: "submitted", response }).then((r) => r.id);
    const adaResp = await respond(s.p(s.ada), s.g, { diet: "vegan", shoe: "", colour: "blue" });
    const graceResp = await respond(s.p(s.grace), s.g, { diet: "none" });
    await respond(s.p(s.carl), s.g, { diet: "fish" });
    await respond(s.p(s.ada), `/alpha/booking/${s.later}/`, { diet: "other event" });
    const gone = await respond(s.p(s.grace), s.g, { diet: "deleted" });
    await t.engine.delete("alpha", "form_response", gone);

    const body = await json(await t.call("GET", `/events/v2/alpha/person/${s.ada}/order/${s.gala}/questions`, { key: KEYS.alice }));
    expect(body).toMatchObject({ booking_uri: s.g, booking_display_value: "Gala", buyer_uri: s.p(s.ada) });
    expect(body.responses.map((r: any) => [r.uri, r.role, r.contact_display_value])).toEqual([
      [`/alpha/form_response/${adaResp}/`, "buyer", "Ada Lovelace"],
      [`/alpha/form_response/${graceResp}/`, "attendee", "Grace Hopper"],
    ]);
    const diet = { field: "diet", question: "Dietary needs", answer: "vegan", form_type: "text", required: true, marks_available: 2, uri: formUri };
    const colour = { field: "colour", question: "colour", answer: "blue", form_type: null, required: false, marks_available: null, uri: formUri };
    expect(body.responses[0].response).toEqual({
      flat: { diet: "vegan", shoe: "", colour: "blue" },
      simple: [diet, colour],
      sections: [
        { title: "Food", questions: [diet] },
        { title: null, questions: [colour] },
      ],
    });
  });

  run("rebase tickets: each live ticket's start_date set to the event's, once; no start date 409 with nothing written", async () => {
    const t = await setup();
    const s = await seed(t);
    const path = `/events/v2/alpha/booking/${s.gala}/rebase/tickets`;
    await t.engine.update("alpha", "ticket", s.tk.child, { start_date: "2026-02-01" });
    const first = await json(await t.call("PUT", path, { key: KEYS.alice }));
    expect(first.unchanged_tickets).toBe(1);
    expect(first.ticket_changes).toEqual([s.tk.adaAdult, s.tk.graceGuest, s.tk.cancelled, s.tk.refunded].map((id) => ({ uri: `/alpha/ticket/${id}/`, old_date: null, new_date: "2026-02-01" })));
    expect((await json(await t.call("GET", `/api/v1/alpha/ticket/${s.tk.adaAdult}/`, { key: KEYS.alice }))).data.start_date).toBe("2026-02-01");
    expect(await json(await t.call("PUT", path, { key: KEYS.alice }))).toEqual({ ticket_changes: [], unchanged_tickets: 5 });
    await t.engine.update("alpha", "booking", s.gala, { start_date: "2026-02-08" });
    expect((await json(await t.call("PUT", path, { key: KEYS.alice }))).ticket_changes[0]).toEqual({ uri: `/alpha/ticket/${s.tk.adaAdult}/`, old_date: "2026-02-01", new_date: "2026-02-08" });

    const undated = (await t.engine.create("alpha", "booking", { title: "Someday" })).id;
    const lone = (await t.engine.create("alpha", "ticket", { booking_ref: `/alpha/booking/${undated}/`, start_date: "2026-01-01" })).id;
    const res = await t.call("PUT", `/events/v2/alpha/booking/${undated}/rebase/tickets`, { key: KEYS.alice });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ title: "no start date", type: "conflict" });
    expect((await t.storage.getRecord("alpha", "ticket", lone))!.version).toBe(1);
    expect((await t.call("PUT", `/events/v2/alpha/booking/${s.gone}/rebase/tickets`, { key: KEYS.alice })).status).toBe(404);
  });

  run("rebase questions: creates the missing responses once; no form refs changes nothing; a dangling form 404 with nothing written", async () => {
    const t = await setup();
    const s = await seed(t);
    const path = `/events/v2/alpha/booking/${s.gala}/rebase/questions`;
    const responses = async () => (await t.call("GET", "/api/v1/alpha/form_response/", { key: KEYS.alice }).then(json)).total as number;
    expect(await json(await t.call("PUT", path, { key: KEYS.alice }))).toEqual({ changes: [], unchanged: 0 });
    const orderForm = `/alpha/form/${(await t.engine.create("alpha", "form", { name: "Order" })).id}/`;
    const attendeeForm = `/alpha/form/${(await t.engine.create("alpha", "form", { name: "Attendee" })).id}/`;
    // Ada already answered the attendee form for this event.
    await t.engine.create("alpha", "form_response", { form_ref: attendeeForm, contact_ref: s.p(s.ada), context_ref: [s.g], status: "submitted" });

    await t.engine.update("alpha", "booking", s.gala, { order_form_ref: `/alpha/form/${"0".repeat(24)}/`, attendee_form_ref: attendeeForm });
    const before = await responses();
    const dangling = await t.call("PUT", path, { key: KEYS.alice });
    expect(dangling.status).toBe(404);
    expect(await json(dangling)).toMatchObject({ title: "form not found", type: "not_found" });
    expect(await responses()).toBe(before);

    await t.engine.update("alpha", "booking", s.gala, { order_form_ref: orderForm });
    const made = await json(await t.call("PUT", path, { key: KEYS.alice }));
    expect(made.unchanged).toBe(1);
    expect(made.changes).toHaveLength(2);
    const created = await Promise.all(made.changes.map(async (c: any) => (await t.call("GET", `/api/v1${c.uri}`, { key: KEYS.alice }).then(json)).data));
    // Carl's tickets are cancelled and refunded: he is neither a buyer nor an attendee here.
    expect(created.map((d: any) => [d.form_ref.ref ?? d.form_ref, d.contact_ref.ref ?? d.contact_ref, d.status])).toEqual([
      [orderForm, s.p(s.ada), "started"],
      [attendeeForm, s.p(s.grace), "started"],
    ]);
    expect(await json(await t.call("PUT", path, { key: KEYS.alice }))).toEqual({ changes: [], unchanged: 3 });
    expect(await responses()).toBe(before + 2);
  });

  run("attendance export: XLSX rows of counted tickets, column groups by fieldset; CSV on request", async () => {
    const t = await setup();
    const s = await seed(t);
    const plan = (await t.engine.create("alpha", "membership_type", { name: "Gold" })).id;
    await t.engine.create("alpha", "member", { member: s.p(s.ada), membership_number: "M-1", membership_type: `/alpha/membership_type/${plan}/`, start_date: "2025-01-01", end_date: "2026-12-31" });
    const base = `/events/v2/alpha/booking/${s.gala}/attendance/export`;
    const res = await t.call("GET", base, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toContain(`attendance-${s.gala}.xlsx`);
    expect(await sheetOf(res)).toEqual([
      ["Attendee name", "Email", "Ticket type", "Ticket URI", "Status"],
      ["Ada Lovelace", "ada@example.org", "Adult", `/alpha/ticket/${s.tk.adaAdult}/`, "booked"],
      ["Grace Hopper", "grace@example.org", "Adult", `/alpha/ticket/${s.tk.graceGuest}/`, "reserved"],
      ["Ada Lovelace", "ada@example.org", "Child", `/alpha/ticket/${s.tk.child}/`, "booked"],
    ]);
    const wide = await sheetOf(await t.call("GET", `${base}?fieldset=membership&fieldset=communications,core&fieldset=emergency,profile,attendance`, { key: KEYS.alice }));
    expect(wide[0]).toEqual([
      "Attendee name", "Email", "Ticket type", "Ticket URI", "Status", "Attendance", "Last updated", "Telephone", "Address", "Locality", "Postal code", "Country",
      "Emergency contact", "Emergency contact 2", "Membership number", "Membership plan", "Membership end date", "Job title", "Organisation", "Date of birth",
    ]);
    expect(wide[1]!.slice(5, 8)).toEqual(["accepted", expect.any(String), "+44 1"]);
    expect(wide[1]!.slice(9, 10)).toEqual(["London"]);
    expect(wide[1]![12]).toBe("Byron");
    expect(wide[1]!.slice(14, 18)).toEqual(["M-1", "Gold", "2026-12-31", "Analyst"]);
    expect(wide[2]![14]).toBeUndefined();

    const csv = await t.call("GET", `${base}?format=csv&fieldset=attendance`, { key: KEYS.alice });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect((await csv.text()).split("\n")[0]).toBe("Attendance,Last updated");
  });

  run("orders export and its meta: one row per live ticket, the order columns", async () => {
    const t = await setup();
    const s = await seed(t);
    const rows = await sheetOf(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/orders/export?fieldset=order,core`, { key: KEYS.alice }));
    expect(rows[0]).toEqual(["Attendee name", "Email", "Ticket type", "Ticket URI", "Status", "Buyer", "Buyer URI", "Amount", "Currency", "Purchase date"]);
    expect(rows.slice(1).map((r) => [r[4], r[5], r[7]])).toEqual([
      ["booked", "Ada Lovelace", 25],
      ["reserved", "Ada Lovelace", 12.5],
      ["cancelled", "Carl Zeiss", undefined],
      ["refunded", "Carl Zeiss", undefined],
      ["booked", "Ada Lovelace", undefined],
    ]);
    const meta = await json(await t.call("GET", `/events/v2/alpha/booking/${s.gala}/orders/export/meta?fieldset=mailing`, { key: KEYS.alice }));
    expect(meta).toEqual({
      booking_uri: s.g,
      fieldsets: ["mailing"],
      columns: [
        { field: "email_opt_out", label: "Email opt-out" },
        { field: "comms_permission", label: "Communication permissions" },
      ],
      rows: 5,
    });
  });

  run.each([
    ["attendance/export?fieldset=order", "invalid fieldset"],
    ["attendance/export?fieldset=core,nope", "invalid fieldset"],
    ["orders/export?fieldset=attendance", "invalid fieldset"],
    ["orders/export/meta?fieldset=secret", "invalid fieldset"],
    ["orders/export?format=pdf", "invalid format"],
  ])("export %s is a 400 in the v2 error shape", async (query, title) => {
    const t = await setup();
    const s = await seed(t);
    const res = await t.call("GET", `/events/v2/alpha/booking/${s.gala}/${query}`, { key: KEYS.alice });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ title, error: title, type: "bad_request", description: expect.any(String) });
  });
});
