/**
 * End to end through the real CLI (SQLite file, manual clock): an event walked from
 * creation to attendance. Staff create the event, its ticket types and tickets through the
 * generic record paths; the events gateway lists it while it is in the window, counts its
 * stock, lists its tickets, records attendance (seen by the v1 ticket and its audit
 * history), the order's invoice opens through its signed link without a key, and the
 * attendance export (XLSX) and its CSV form hold the recorded attendance.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-events-e2e-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe("an event from creation to attendance export, through the CLI's server", { timeout: 90_000 }, () => {
  it("lists, counts, tickets, records attendance, invoices the order and exports the attendance", async () => {
    const config = join(tmp, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        flocks: [{ identifier: "club", name: "The Club" }],
        users: [{ username: "staff@example.org", password: "staff password 1", flocks: ["*"] }],
        invoicing: [{ flock: "club", contact_email: "fin@example.org" }],
        // The walk moves the clock 55 days: the key must outlive it.
        auth: { keyTtlHours: 24 * 365 },
      }),
    );
    const p = startCli(["serve", "--db", join(tmp, "records.db"), "--port", "0", "--quiet", "--config", config, "--clock", "manual=2026-03-01T09:00:00Z"]);
    const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//))![1]!;
    const headers = { application: "Tests/events-e2e/1", "content-type": "application/json" };
    const login = await fetch(`${url}/api/v1/auth/`, { method: "POST", headers, body: JSON.stringify({ username: "staff@example.org", password: "staff password 1" }) });
    const key = ((await login.json()) as { api_key: string }).api_key;
    const auth = { ...headers, authorization: `Bearer ${key}` };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const create = async (type: string, data: Record<string, unknown>) => {
      const res = await call("POST", `/api/v1/club/${type}/`, data);
      expect(res.status).toBe(201);
      return res.body.uri as string;
    };

    const ada = await create("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org"] });
    const grace = await create("person", { first_name: "Grace", last_name: "Hopper" });
    const booking = await create("booking", { title: "Spring lecture", start_date: "2026-04-10", start_time: "19:00", location: "Main hall" });
    const bookingId = booking.split("/")[3]!;
    const seat = await create("bookable", { booking_ref: booking, name: "Seat", amount: 8, total: 3 });
    const ticket = await create("ticket", { booking_ref: booking, bookable_ref: seat, buyer_ref: ada, quantity: 2, amount: 16 });
    await create("ticket", { booking_ref: booking, bookable_ref: seat, buyer_ref: grace, status: "cancelled", amount: 8 });

    const list = await call("GET", "/events/v2/club");
    expect(list.status).toBe(200);
    expect(list.body.bookings.map((b: any) => b.uri)).toEqual([booking]);
    expect(list.body.bookings[0]).toMatchObject({ start_datetime: "2026-04-10T19:00:00.000000", has_available_tickets: true, is_sold_out: false });

    const avail = await call("GET", `/events/v2/club/booking/${bookingId}/available_tickets`);
    expect(avail.body.available_tickets).toEqual([expect.objectContaining({ uri: seat, total: 3, allocated: 2, reserved: 0, available: 1, amount: "8.00" })]);
    const tickets = await call("GET", `/events/v2/club/booking/${bookingId}/tickets/all`);
    expect(tickets.body.tickets.map((t: any) => t.status)).toEqual([null, "cancelled"]);

    const refused = await call("PUT", `/events/v2/club/booking/${bookingId}/attendance?person_uri=${encodeURIComponent(grace)}&status=attended`);
    expect(refused).toMatchObject({ status: 404, body: { title: "no ticket for that person", type: "not_found" } });
    const put = await call("PUT", `/events/v2/club/booking/${bookingId}/attendance`, { person_uri: ada, status: "attended" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ booking_ref: booking, person_ref: ada, status: "attended" });
    const sessions = await call("GET", `/events/v2/club/booking/${bookingId}/attendance/all`);
    expect(sessions.body.sessions).toEqual([expect.objectContaining({ ticket_ref: ticket, attendee_name: "Ada Lovelace", attendee_email: "ada@example.org", status: "attended" })]);
    const v1 = await call("GET", `/api/v1${ticket}`);
    expect(v1.body.data.attendance).toBe("attended");
    const audit = await call("GET", `/audit/v2${ticket}audit`);
    expect(audit.status).toBe(200);
    expect(audit.body.results.length).toBeGreaterThanOrEqual(2);

    const invoice = await call("GET", `/invoices/v2/club/order/${ticket.split("/")[3]}`);
    expect(invoice.body).toMatchObject({ total: 16, due: 16, status: "unpaid", config: { flock_name: "The Club", contact_email: "fin@example.org" } });
    const signed = await fetch(`${url}${invoice.body.signed_invoice_uri}`, { headers: { application: headers.application } });
    expect(signed.status).toBe(200);
    expect(((await signed.json()) as { total: number }).total).toBe(16);

    // The manual clock moves "today": 55 days on (2026-04-25), the lecture is more than 14 days past.
    expect((await call("POST", "/api/v1/_clock/advance/", { days: 55 })).status).toBe(200);
    const later = await call("GET", "/events/v2/club");
    expect(later.body, JSON.stringify(later.body)).toMatchObject({ total: 0 });
    expect((await call("GET", "/events/v2/club/bookings/past")).body.bookings.map((b: any) => b.uri)).toEqual([booking]);
    // The attendance export at the end of the walk: the spreadsheet, read back, and the same as CSV.
    const exported = await fetch(`${url}/events/v2/club/booking/${bookingId}/attendance/export?fieldset=core,attendance`, { headers: auth });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await exported.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1, 7)));
    expect(rows).toEqual([
      ["Attendee name", "Email", "Ticket type", "Ticket URI", "Status", "Attendance"],
      ["Ada Lovelace", "ada@example.org", "Seat", ticket, "booked", "attended"],
    ]);
    const csv = await fetch(`${url}/events/v2/club/booking/${bookingId}/attendance/export?fieldset=attendance&format=csv`, { headers: auth });
    expect((await csv.text()).split("\n")[1]).toMatch(/^attended,2026-03-01T09:00:00/);
    const badFieldset = await call("GET", `/events/v2/club/booking/${bookingId}/attendance/export?fieldset=order`);
    expect(badFieldset).toMatchObject({ status: 400, body: { title: "invalid fieldset", type: "bad_request" } });

    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);

    // The CLI prints the same signed link from the database's secret.
    const printed = await runCliToEnd(["invoice-url", "club", "order", ticket.split("/")[3]!, "--db", join(tmp, "records.db"), "--base-url", url]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toEqual([`${url}${invoice.body.signed_invoice_uri}`]);
    const missing = await runCliToEnd(["invoice-url", "club", "invoice", ticket.split("/")[3]!, "--db", join(tmp, "records.db")]);
    expect(missing.code).toBe(1);
  });
});
