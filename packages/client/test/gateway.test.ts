/**
 * The client's gateway methods against a running server: events (list, get, ticket types,
 * tickets, attendance read and write), segments (find, count) and invoices (keyed and
 * signed), with errors in the v2 shape.
 */
import type { RunningServer } from "@records-service/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, RecordsApiError, type RecordsClient } from "../src/index.js";
import { APPLICATION, STAFF, testServer } from "./server.js";

describe("the client's gateway methods", () => {
  let server: RunningServer;
  let client: RecordsClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await testServer({ manualClock: "2026-01-15T10:00:00Z" });
    client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    const create = async (type: string, data: Record<string, unknown>) => ((await client.records("demo", type).create(data)).uri as string).split("/")[3]!;
    ids.ada = await create("person", { first_name: "Ada", last_name: "Lovelace", source: "web" });
    ids.gala = await create("booking", { title: "Gala", start_date: "2026-02-01" });
    ids.adult = await create("bookable", { booking_ref: `/demo/booking/${ids.gala}/`, name: "Adult", amount: 10, total: 5 });
    ids.ticket = await create("ticket", { booking_ref: `/demo/booking/${ids.gala}/`, bookable_ref: `/demo/bookable/${ids.adult}/`, buyer_ref: `/demo/person/${ids.ada}/`, amount: 10 });
    ids.segment = await create("segment", { name: "Web people", resource_type: "person", rules: [{ field: "source", operator: "equals", value: "web" }] });
  });
  afterAll(() => server?.close());

  it("events: list, one event, ticket types, tickets and attendance", async () => {
    const events = client.events("demo");
    const list = await events.list({ page_size: 10 });
    expect(list.bookings.map((b) => b.title)).toEqual(["Gala"]);
    expect(list.page_size).toBe(10);
    expect((await events.list({ state: "future" })).total).toBe(1);
    expect((await events.get(ids.gala!)).total_stock_available).toBe(4);
    expect(await events.availableTickets(ids.gala!)).toEqual([expect.objectContaining({ name: "Adult", amount: "10.00", available: 4 })]);
    expect((await events.tickets(ids.gala!)).tickets).toHaveLength(1);
    const updated = await events.setAttendance(ids.gala!, `/demo/person/${ids.ada}/`, "attended");
    expect(updated.attendance[0]!.attendance.status).toBe("attended");
    expect((await events.attendance(ids.gala!)).sessions.map((s) => s.status)).toEqual(["attended"]);
    const err = await events.list({ state: "soon" as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordsApiError);
    expect(err).toMatchObject({ status: 400, title: "invalid state", isV2: true });
  });

  it("segments: find and count", async () => {
    const segments = client.segments("demo");
    const found = await segments.find("web");
    expect(found.segments.map((s) => s.uid)).toEqual([ids.segment]);
    expect(await segments.count(ids.segment!)).toEqual({ count: 1, description: null, segment: `/demo/segment/${ids.segment}/` });
  });

  it("invoices: keyed, then through the signed link without a key", async () => {
    const invoices = client.invoices("demo");
    const order = await invoices.get("order", ids.ticket!);
    expect(order).toMatchObject({ total: 10, due: 10, status: "unpaid" });
    const anonymous = createClient({ baseUrl: server.url, application: APPLICATION });
    expect(await anonymous.invoices("demo").signed("order", ids.ticket!, order.signature)).toEqual(order);
    await expect(anonymous.invoices("demo").signed("order", ids.ticket!, "0".repeat(64))).rejects.toMatchObject({ status: 401, title: "signature invalid" });
  });

  // Last: it deletes the order the invoices test reads.
  it("events, section 6: summary, orders, questions, rebase, exports and deleting an order", async () => {
    const events = client.events("demo");
    expect((await events.summary(ids.gala!)).title).toBe("Gala");
    const orders = await events.orders(ids.gala!);
    const ada = `/demo/person/${ids.ada}/`;
    expect(orders).toMatchObject({ number_of_orders: 1, number_of_unpaid_orders: 1 });
    expect(orders.buyers[ada]).toMatchObject({ tickets: 1, tickets_as_string: "1 x Adult", order_total: { gbp: { total: 10, outstanding: 10 } } });
    expect((await events.personOrders(ids.ada!)).orders.map((o) => o.booking_display)).toEqual(["Gala"]);
    expect((await events.order(ids.gala!, { id: ids.ada! })).buyer).toBe(ada);
    expect((await events.orderQuestions(ids.gala!, { id: ids.ada! })).responses).toEqual([]);
    expect(await events.rebaseTickets(ids.gala!)).toMatchObject({ unchanged_tickets: 0, ticket_changes: [{ new_date: "2026-02-01" }] });
    expect(await events.rebaseQuestions(ids.gala!)).toEqual({ changes: [], unchanged: 0 });
    const csv = await events.exportAttendance(ids.gala!, { fieldsets: ["core", "attendance"], format: "csv" });
    expect((await csv.text()).split("\n")[1]).toMatch(/^Ada Lovelace,/);
    const xlsx = await events.exportOrders(ids.gala!);
    expect(xlsx.type).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(new Uint8Array(await xlsx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    expect(await events.exportOrdersMeta(ids.gala!, { fieldsets: ["order"] })).toMatchObject({ fieldsets: ["order"], rows: 1 });
    await expect(events.exportOrders(ids.gala!, { fieldsets: ["nope" as never] })).rejects.toMatchObject({ status: 400, title: "invalid fieldset" });
    expect((await events.deleteOrder(ids.gala!, { id: ids.ada! })).deleted).toEqual([`/demo/ticket/${ids.ticket}/`]);
    await expect(events.order(ids.gala!, { id: ids.ada! })).rejects.toMatchObject({ status: 404, title: "no order" });
  });
});
