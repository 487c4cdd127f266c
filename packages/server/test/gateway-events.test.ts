/**
 * The events gateway (spec v2-gateway section 1) over booking, bookable and ticket records,
 * on every storage adapter: the window list and its alias, states, the event packet,
 * available tickets, tickets, attendance (GET, PUT, all), auth order, bad input and deleted
 * records.
 */
import { describe, expect, it, vi } from "vitest";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

/** Today on the test clock is 2026-01-15: the window is 2026-01-01 .. 2026-04-15. */
async function seedEvents(t: TestApp) {
  const make = (type: string, data: Record<string, unknown>) => t.engine.create("alpha", type, data).then((r) => r.id);
  const ada = await make("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
  const grace = await make("person", { first_name: "Grace", last_name: "Hopper", email: ["grace@example.org"] });
  const carl = await make("person", { first_name: "Carl", last_name: "Zeiss" });
  const b = {
    tooOld: await make("booking", { title: "Too old", start_date: "2025-12-31" }),
    first: await make("booking", { title: "First day", start_date: "2026-01-01", start_time: "18:00" }),
    multi: await make("booking", { title: "Long course", start_date: "2025-12-20", end_date: "2026-01-01" }),
    gala: await make("booking", { title: "Gala", start_date: "2026-02-01", start_time: "19:30", end_time: "23:00", location: "Hall" }),
    draft: await make("booking", { title: "Draft talk", start_date: "2026-02-01", status: "draft" }),
    last: await make("booking", { title: "Last day", start_date: "2026-04-15" }),
    tooFar: await make("booking", { title: "Too far", start_date: "2026-04-16" }),
    undated: await make("booking", { title: "Someday" }),
    gone: await make("booking", { title: "Deleted", start_date: "2026-02-02" }),
    today: await make("booking", { title: "Today", start_date: "2026-01-15", end_date: "2026-01-16" }),
  };
  await t.engine.delete("alpha", "booking", b.gone);
  const galaUri = `/alpha/booking/${b.gala}/`;
  const adult = await make("bookable", { booking_ref: galaUri, name: "Adult", amount: 12.5, total: 10, sort_order: 1 });
  const child = await make("bookable", { booking_ref: galaUri, name: "Child", amount: 0, sort_order: 2 });
  const ticket = (data: Record<string, unknown>) => make("ticket", { booking_ref: galaUri, ...data });
  const tk = {
    adaAdult: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: `/alpha/person/${ada}/`, quantity: 2, amount: 25 }),
    graceGuest: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: `/alpha/person/${ada}/`, person_ref: `/alpha/person/${grace}/`, status: "reserved", amount: 12.5 }),
    cancelled: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: `/alpha/person/${carl}/`, quantity: 3, status: "cancelled" }),
    refunded: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: `/alpha/person/${carl}/`, status: "refunded" }),
    deleted: await ticket({ bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: `/alpha/person/${carl}/` }),
    child: await ticket({ bookable_ref: `/alpha/bookable/${child}/`, buyer_ref: `/alpha/person/${ada}/`, attendee_name: "Kid" }),
  };
  await t.engine.delete("alpha", "ticket", tk.deleted);
  return { ada, grace, carl, b, adult, child, tk };
}

const json = async (res: Response) => (await res.json()) as Record<string, any>;

describe.each(EVERY_ADAPTER)("events gateway on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("refuses strangers before reading any record (positive control first)", async () => {
    const t = await setup();
    const { b } = await seedEvents(t);
    const paths = ["/events/v2/alpha", `/events/v2/alpha/booking/${b.gala}`, `/events/v2/alpha/booking/${b.gala}/attendance/all`, "/events/v2/alpha/bookings/future"];
    for (const p of paths) expect((await t.call("GET", p, { key: KEYS.alice })).status).toBe(200);
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "getRecords"), vi.spyOn(t.storage, "listRecords")];
    for (const p of paths) {
      for (const [key, status] of [[undefined, 401], ["0".repeat(64), 401], [KEYS.bob, 403], [KEYS.member, 403], [KEYS.expired, 401]] as const) {
        const res = await t.call("GET", p, { key });
        expect(res.status, `${p} ${key}`).toBe(status);
        expect(Object.keys(await json(res))).toEqual(expect.arrayContaining(["title", "description"]));
      }
      expect((await t.call("GET", p.replace("/alpha", "/ghost"), { key: KEYS.admin })).status).toBe(404);
    }
    const put = await t.call("PUT", `/events/v2/alpha/booking/${b.gala}/attendance?person_uri=/alpha/person/x/&status=attended`, { key: KEYS.bob });
    expect(put.status).toBe(403);
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
  });

  run("lists the window (14 days back, 90 ahead, overlap), in order, with paging; /bookings is the same", async () => {
    const t = await setup();
    const { b } = await seedEvents(t);
    const res = await t.call("GET", "/events/v2/alpha/", { key: KEYS.alice });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.bookings.map((e: any) => e.title)).toEqual(["Long course", "First day", "Today", "Draft talk", "Gala", "Last day"]);
    expect(body).toMatchObject({ page: 1, page_size: 250, total: 6, pages: 1 });
    const gala = body.bookings.find((e: any) => e.uid === b.gala);
    expect(gala).toMatchObject({
      uri: `/alpha/booking/${b.gala}/`,
      resource_type: "booking",
      display_value: "Gala",
      formatted_title: "Gala",
      start_datetime: "2026-02-01T19:30:00.000000",
      end_datetime: "2026-02-01T23:00:00.000000",
      date_range: "2026-02-01",
      multi_day: false,
      cancelled: false,
      location: "Hall",
      ticketed_event: true,
      has_available_tickets: true,
      is_sold_out: false,
      minimum_ticket_price: 0,
      maximum_ticket_price: 12.5,
    });
    expect(Object.keys(gala)).not.toContain("ticket_types");
    expect(body.bookings.find((e: any) => e.title === "Draft talk").status).toBe("draft");
    expect(await json(await t.call("GET", "/events/v2/alpha/bookings", { key: KEYS.alice }))).toEqual(body);

    const page2 = await json(await t.call("GET", "/events/v2/alpha?page=2&page_size=4", { key: KEYS.alice }));
    expect(page2).toMatchObject({ page: 2, page_size: 4, total: 6, pages: 2 });
    expect(page2.bookings.map((e: any) => e.title)).toEqual(["Gala", "Last day"]);
  });

  run("today follows the service clock", async () => {
    const t = await setup();
    await seedEvents(t);
    t.clock.advance(86_400_000);
    const titles = (await json(await t.call("GET", "/events/v2/alpha", { key: KEYS.alice }))).bookings.map((e: any) => e.title);
    expect(titles).toEqual(["Today", "Draft talk", "Gala", "Last day", "Too far"]);
  });

  run.each([
    ["page_size=abc"],
    ["page_size=0"],
    ["page_size=2000"],
    ["page=0"],
    ["page=x"],
  ])("refuses %s with a 400 in the error shape", async (query) => {
    const t = await setup();
    const res = await t.call("GET", `/events/v2/alpha?${query}`, { key: KEYS.alice });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ title: expect.stringMatching(/bad page/), error: expect.stringMatching(/bad page/), type: "bad_request" });
  });

  run("bookings/{state}: the six states, and 400 for another word", async () => {
    const t = await setup();
    await seedEvents(t);
    const titles = async (state: string) => (await json(await t.call("GET", `/events/v2/alpha/bookings/${state}`, { key: KEYS.alice }))).bookings.map((e: any) => e.title);
    expect(await titles("future")).toEqual(["Draft talk", "Gala", "Last day", "Too far"]);
    expect(await titles("past")).toEqual(["First day", "Too old", "Long course"]);
    expect(await titles("running")).toEqual(["Today"]);
    expect(await titles("current")).toEqual(["Today", "Draft talk", "Gala", "Last day", "Too far"]);
    expect(await titles("draft")).toEqual(["Draft talk"]);
    expect(await titles("all")).toEqual(["Long course", "Too old", "First day", "Today", "Draft talk", "Gala", "Last day", "Too far", "Someday"]);
    const bad = await t.call("GET", "/events/v2/alpha/bookings/soon", { key: KEYS.alice });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ title: "invalid state", description: expect.stringContaining("all, future, past, running, current, draft") });
  });

  run("the event packet, its ticket types and stock; deleted, unknown and wrong-type ids are 404", async () => {
    const t = await setup();
    const { b, adult, child, ada } = await seedEvents(t);
    const packet = await json(await t.call("GET", `/events/v2/alpha/booking/${b.gala}`, { key: KEYS.alice }));
    const adultUri = `/alpha/bookable/${adult}/`;
    const childUri = `/alpha/bookable/${child}/`;
    expect(packet).toMatchObject({
      title: "Gala",
      uid: b.gala,
      bookable_refs: [adultUri, childUri],
      total_stock: 10,
      total_stock_allocated: 3,
      total_stock_available: 7,
      ticket_type_income: { [adultUri]: 37.5, [childUri]: 0 },
      user_interface: { can_cancel_event: true },
    });
    expect(packet.ticket_types[adultUri]).toMatchObject({ total: 10, allocated: 2, reserved: 1, available: 7 });

    const avail = await json(await t.call("GET", `/events/v2/alpha/booking/${b.gala}/available_tickets`, { key: KEYS.alice }));
    expect(avail.available_tickets).toEqual([
      expect.objectContaining({ uri: adultUri, name: "Adult", amount: "12.50", currency: "gbp", total: 10, allocated: 2, reserved: 1, available: 7, number_of_attendees_per_ticket: "1", sort_order: 1, tags: [], member_only: false }),
      expect.objectContaining({ uri: childUri, name: "Child", amount: "0.00", total: null, allocated: 1, reserved: 0, available: null }),
    ]);

    for (const id of [b.gone, ada, "0".repeat(24), "nope"]) {
      for (const suffix of ["", "/available_tickets", "/tickets/all", "/attendance/all"]) {
        const res = await t.call("GET", `/events/v2/alpha/booking/${id}${suffix}`, { key: KEYS.alice });
        expect(res.status, `${id}${suffix}`).toBe(404);
        expect(await json(res)).toHaveProperty("description");
      }
    }
  });

  run("sold out, unlimited and cancelled events", async () => {
    const t = await setup();
    const booking = (await t.engine.create("alpha", "booking", { title: "Tiny", start_date: "2026-01-20", cancelled: true })).id;
    const uri = `/alpha/booking/${booking}/`;
    const type = (await t.engine.create("alpha", "bookable", { booking_ref: uri, name: "Seat", total: "2" })).id;
    await t.engine.create("alpha", "ticket", { booking_ref: uri, bookable_ref: `/alpha/bookable/${type}/`, quantity: 2 });
    const packet = await json(await t.call("GET", `/events/v2/alpha/booking/${booking}/`, { key: KEYS.alice }));
    expect(packet).toMatchObject({ is_sold_out: true, has_available_tickets: false, cancelled: true, has_cancelled: true, total_stock_available: 0 });
    const bare = (await t.engine.create("alpha", "booking", { title: "Open", start_date: "2026-01-20" })).id;
    expect(await json(await t.call("GET", `/events/v2/alpha/booking/${bare}`, { key: KEYS.alice }))).toMatchObject({
      ticketed_event: false,
      is_sold_out: false,
      has_available_tickets: false,
      total_stock: null,
      minimum_ticket_price: null,
    });
  });

  run("tickets/all: every live ticket, cancelled ones included, expanded", async () => {
    const t = await setup();
    const { b, tk, ada, grace, adult } = await seedEvents(t);
    const body = await json(await t.call("GET", `/events/v2/alpha/booking/${b.gala}/tickets/all`, { key: KEYS.alice }));
    expect(body.booking_uri).toBe(`/alpha/booking/${b.gala}/`);
    expect(body.booking.uid).toBe(b.gala);
    expect(body.tickets.map((x: any) => x.uid)).toEqual([tk.adaAdult, tk.graceGuest, tk.cancelled, tk.refunded, tk.child]);
    expect(body.tickets[1]).toMatchObject({
      booking: `/alpha/booking/${b.gala}/`,
      booking_display: "Gala",
      buyer: `/alpha/person/${ada}/`,
      buyer_display: "Ada Lovelace",
      ticket_type: `/alpha/bookable/${adult}/`,
      ticket_type_display: "Adult",
      person_ref: `/alpha/person/${grace}/`,
      status: "reserved",
      quantity: 1,
      date: "2026-02-01T19:30:00.000000",
      display_value: "Adult: Grace Hopper",
      venue: "Hall",
      ticket_id: tk.graceGuest,
    });
    expect(body.tickets[2]).toMatchObject({ status: "cancelled", quantity: 3 });
  });

  run("attendance: sessions of counted tickets, PUT through the engine, and refusals that write nothing", async () => {
    const t = await setup();
    const { b, tk, ada, grace, carl } = await seedEvents(t);
    const base = `/events/v2/alpha/booking/${b.gala}`;
    const before = await json(await t.call("GET", `${base}/attendance/all`, { key: KEYS.alice }));
    expect(before.sessions.map((s: any) => [s.attendee_name, s.status])).toEqual([
      ["Ada Lovelace", "accepted"],
      ["Ada Lovelace", "accepted"],
      ["Grace Hopper", "accepted"],
    ]);
    const graceSession = before.sessions.find((s: any) => s.uid === tk.graceGuest);
    expect(graceSession).toMatchObject({ guest: true, guest_ref: `/alpha/person/${ada}/`, attendee_email: "grace@example.org", ticket: "Adult", ticket_ref: `/alpha/ticket/${tk.graceGuest}/` });
    for (const alias of [`${base}/attendance`, `/events/v2/alpha/bookings/${b.gala}/attendance`]) {
      expect(await json(await t.call("GET", alias, { key: KEYS.alice }))).toEqual(before);
    }

    const version = async (id: string) => (await t.storage.getRecord("alpha", "ticket", id))!.version;
    const versions = await Promise.all(Object.values(tk).map(version));
    const refusals: [string, unknown, number, string][] = [
      [`?status=attended`, undefined, 400, "missing person_uri"],
      [`?person_uri=/alpha/person/${grace}/&status=here`, undefined, 400, "invalid status"],
      [`?person_uri=/beta/person/${grace}/&status=attended`, undefined, 400, "invalid person_uri"],
      [`?person_uri=/alpha/booking/${b.gala}/&status=attended`, undefined, 400, "invalid person_uri"],
      [`?person_uri=/alpha/person/${carl}/&status=attended`, undefined, 404, "no ticket for that person"],
      ["", { person_uri: `/alpha/person/${grace}/` }, 400, "missing status"],
    ];
    for (const [query, body, status, title] of refusals) {
      const res = await t.call("PUT", `${base}/attendance${query}`, { key: KEYS.alice, json: body });
      expect(res.status, query).toBe(status);
      expect(await json(res)).toMatchObject({ title });
    }
    const unknown = await t.call("PUT", `/events/v2/alpha/booking/${b.gone}/attendance?person_uri=/alpha/person/${grace}/&status=attended`, { key: KEYS.alice });
    expect(unknown.status).toBe(404);
    expect(await Promise.all(Object.values(tk).map(version))).toEqual(versions);

    // The body wins over the query; without the final slash the URI is the same person.
    const put = await t.call("PUT", `${base}/attendance?status=declined`, { key: KEYS.alice, json: { person_uri: `/alpha/person/${grace}`, status: "attended" } });
    expect(put.status).toBe(200);
    expect(await json(put)).toEqual({
      booking_ref: `/alpha/booking/${b.gala}/`,
      person_ref: `/alpha/person/${grace}/`,
      status: "attended",
      attendance: [
        {
          uri: `/alpha/ticket/${tk.graceGuest}/`,
          attendance: {
            attendee_email: "grace@example.org",
            attendee_name: "Grace Hopper",
            booking_ref: { display_value: "Gala", ref: `/alpha/booking/${b.gala}/` },
            guest: true,
            legacy_uid: null,
            person_ref: { display_value: "Grace Hopper", ref: `/alpha/person/${grace}/` },
            status: "attended",
            ticket_ref: `/alpha/ticket/${tk.graceGuest}/`,
          },
        },
      ],
    });
    // A form body, on the plural alias: both of Ada's tickets.
    const form = await t.call("PUT", `/events/v2/alpha/bookings/${b.gala}/attendance`, {
      key: KEYS.alice,
      body: `person_uri=${encodeURIComponent(`/alpha/person/${ada}/`)}&status=no-show`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    expect((await json(form)).attendance).toHaveLength(2);

    const after = await json(await t.call("GET", `${base}/attendance/all`, { key: KEYS.alice }));
    expect(after.sessions.map((s: any) => s.status).sort()).toEqual(["attended", "no-show", "no-show"]);
    const v1 = await json(await t.call("GET", `/api/v1/alpha/ticket/${tk.graceGuest}/`, { key: KEYS.alice }));
    expect(v1.data.attendance).toBe("attended");
    // The write went through the engine: it is in the ticket's history with its author.
    const audit = await json(await t.call("GET", `/audit/v2/alpha/ticket/${tk.graceGuest}/audit`, { key: KEYS.alice }));
    expect(JSON.stringify(audit)).toContain("alice");
  });
});
