/**
 * The events list counts stock from ticket groups counted in the database (`Storage.countFieldValues`)
 * and orders the selection by five fields of each booking, while the event packet counts
 * from whole tickets: on every adapter, each list entry must be exactly the summary fields
 * of its event packet, and the pages together exactly the selection in its order, whatever
 * the tickets hold (statuses in any case, quantities as numbers and text, deleted tickets,
 * types listed only in `bookable_refs`, references held in a list, which do not count).
 */
import { describe, expect, it } from "vitest";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

/** The summary packet's fields (spec v2-gateway 1.2), in order. */
const SUMMARY = [
  "uid", "uri", "resource_type", "display_value", "title", "formatted_title", "start_date", "end_date", "start_time",
  "end_time", "start_datetime", "end_datetime", "date_range", "multi_day", "status", "cancelled", "booking_type",
  "event_type", "category", "location", "tags", "hide_from_self_service", "member_only_event", "ticketed_event",
  "has_available_tickets", "is_sold_out", "minimum_ticket_price", "maximum_ticket_price", "created", "last_updated",
];

/** Today on the test clock is 2026-01-15. */
async function seedVaried(t: TestApp) {
  const make = async (type: string, data: Record<string, unknown>) => (await t.engine.create("alpha", type, data)).id;
  const uri = (type: string, id: string) => `/alpha/${type}/${id}/`;
  const ada = await make("person", { first_name: "Ada", last_name: "Lovelace" });
  const statuses = [undefined, "booked", "reserved", "Reserved", "cancelled", "REFUNDED", "other"];
  const quantities = [undefined, 1, 2, "3", "x", 0, 2.5];
  let n = 0;
  for (let i = 0; i < 9; i++) {
    const booking = await make("booking", {
      title: i % 3 === 0 ? "Same title" : `Event ${8 - i}`,
      start_date: `2026-01-${String(10 + (i % 4)).padStart(2, "0")}`,
      ...(i % 2 ? { start_time: `1${i}:00` } : {}),
      ...(i === 4 ? { status: "Cancelled", tags: ["a"], location: "Hall" } : {}),
      ...(i === 5 ? { ticketed_event: false, end_date: "2026-02-01" } : {}),
    });
    const bUri = uri("booking", booking);
    const types: string[] = [];
    for (let k = 0; k < i % 3; k++) {
      types.push(await make("bookable", { booking_ref: bUri, name: `T${k}`, amount: k * 5 + i, ...(k % 2 === 0 ? { total: i % 4 === 0 ? 2 : 12 } : {}), ...(i === 7 ? { total: "3" } : {}) }));
    }
    if (i === 6) {
      // A type listed only in the booking's own bookable_refs.
      const listed = await make("bookable", { name: "Listed", amount: 1, total: 1 });
      types.push(listed);
      await t.engine.update("alpha", "booking", booking, { bookable_refs: [uri("bookable", listed)] });
    }
    for (const type of types) {
      for (let k = 0; k < 5; k++) {
        n += 1;
        const status = statuses[n % statuses.length];
        const quantity = quantities[(n * 3) % quantities.length];
        const id = await make("ticket", { booking_ref: bUri, bookable_ref: uri("bookable", type), buyer_ref: uri("person", ada), ...(status === undefined ? {} : { status }), ...(quantity === undefined ? {} : { quantity }) });
        if (n % 11 === 0) await t.engine.delete("alpha", "ticket", id);
      }
      // Held in a list, the booking is not the ticket's booking: it never counts.
      await make("ticket", { booking_ref: [bUri], bookable_ref: uri("bookable", type) });
    }
  }
  // Stock decided by statuses, quantities and deletions: one place left, and sold out.
  const stocked = async (title: string, total: number, tickets: Record<string, unknown>[], deleted: Record<string, unknown>[] = []) => {
    const booking = await make("booking", { title, start_date: "2026-01-20" });
    const type = await make("bookable", { booking_ref: uri("booking", booking), name: "Seat", amount: 3, total });
    const ref = { booking_ref: uri("booking", booking), bookable_ref: uri("bookable", type) };
    for (const data of tickets) await make("ticket", { ...ref, ...data });
    for (const data of deleted) await t.engine.delete("alpha", "ticket", await make("ticket", { ...ref, ...data }));
  };
  await stocked("One left", 3, [{ quantity: 1 }, { status: "Cancelled", quantity: 5 }, { status: "REFUNDED" }, { status: "reserved", quantity: "1" }], [{ quantity: 4 }]);
  await stocked("Sold out", 3, [{ status: "Reserved", quantity: "2" }, { status: "booked" }]);
}

const json = async (res: Response) => (await res.json()) as Record<string, any>;

describe.each(EVERY_ADAPTER)("events list entries on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("are the summary fields of each event packet, and the pages of every state are the whole selection in order", async () => {
    const t = await setup();
    await seedVaried(t);
    for (const path of ["/events/v2/alpha", "/events/v2/alpha/bookings/all", "/events/v2/alpha/bookings/past", "/events/v2/alpha/bookings/current", "/events/v2/alpha/bookings/future"]) {
      const whole = await json(await t.call("GET", path, { key: KEYS.alice }));
      const paged: any[] = [];
      const pages = Math.ceil(whole.total / 4);
      for (let page = 1; page <= pages + 1; page++) {
        const body = await json(await t.call("GET", `${path}?page=${page}&page_size=4`, { key: KEYS.alice }));
        expect(body, path).toMatchObject({ total: whole.total, pages });
        paged.push(...body.bookings);
      }
      expect(paged, path).toEqual(whole.bookings);
      expect(whole.bookings.length, path).toBe(whole.total);
    }
    const all = await json(await t.call("GET", "/events/v2/alpha/bookings/all", { key: KEYS.alice }));
    expect(all.total).toBe(11);
    const byTitle = (title: string) => all.bookings.find((e: any) => e.title === title);
    // Positive controls: statuses (any case), text quantities and deletions decide these two.
    expect(byTitle("One left")).toMatchObject({ has_available_tickets: true, is_sold_out: false });
    expect(byTitle("Sold out")).toMatchObject({ has_available_tickets: false, is_sold_out: true });
    for (const entry of all.bookings) {
      const packet = await json(await t.call("GET", `/events/v2/alpha/booking/${entry.uid}`, { key: KEYS.alice }));
      expect(JSON.stringify(entry)).toBe(JSON.stringify(Object.fromEntries(SUMMARY.map((f) => [f, packet[f] ?? null]))));
    }
  });
});
