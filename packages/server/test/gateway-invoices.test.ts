/**
 * The invoices gateway (spec v2-gateway section 2) on every storage adapter: an invoice
 * record, a membership and an order as JSON; totals, payments and status; signed links
 * (no key, checked before any read, revoked by deletion); member tokens; bad input.
 */
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../src/app.js";
import { parseConfig } from "../src/config.js";
import { invoiceKey, invoiceSignature } from "../src/gateway/invoices/signature.js";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

const json = async (res: Response) => (await res.json()) as Record<string, any>;

async function seedFinance(t: TestApp) {
  const make = (type: string, data: Record<string, unknown>) => t.engine.create("alpha", type, data).then((r) => r.id);
  const ada = await make("person", {
    first_name: "Ada",
    last_name: "Lovelace",
    email: ["Member@Example.org;home"],
    telephone: ["+44 1;mobile"],
    address_lines: ["1 Analytical Row"],
    locality: "London",
    postal_code: "N1 1AA",
    country: "GB",
  });
  const grace = await make("person", { first_name: "Grace", last_name: "Hopper" });
  const adaUri = `/alpha/person/${ada}/`;
  const invoice = await make("invoice", {
    date: "2026-01-10",
    person_ref: adaUri,
    invoice_number: "INV-7",
    purchase_order_no: "PO-1",
    line_items: [
      { name: "Hall hire", price: 100, quantity: 2, tax: "standard", tax_rate: 0.2 },
      { name: "Coffee", price: 2.345 },
    ],
  });
  const invUri = `/alpha/invoice/${invoice}/`;
  await make("payment", { amount: 100, payment_date: "2026-01-12", invoice_ref: invUri });
  await make("payment", { amount: 50, payment_date: "2026-02-01", invoice_ref: invUri });
  await make("payment", { amount: 999, payment_date: "2026-01-12", invoice_ref: invUri, status: "refunded" });
  const gone = await make("payment", { amount: 999, invoice_ref: invUri });
  await t.engine.delete("alpha", "payment", gone);
  const graceInvoice = await make("invoice", { person_ref: `/alpha/person/${grace}/`, line_items: [{ name: "x", price: 1 }] });

  const plan = await make("membership_type", { name: "Annual", amount: 30 });
  const member = await make("member", { member: adaUri, membership_type: `/alpha/membership_type/${plan}/`, start_date: "2026-01-01", end_date: "2026-12-31" });
  await make("payment", { amount: 30, payment_date: "2026-01-01", membership_ref: `/alpha/member/${member}/` });

  const booking = await make("booking", { title: "Gala", start_date: "2026-02-01" });
  const bUri = `/alpha/booking/${booking}/`;
  const adult = await make("bookable", { booking_ref: bUri, name: "Adult", amount: 12.5 });
  const aUri = `/alpha/bookable/${adult}/`;
  const t1 = await make("ticket", { booking_ref: bUri, bookable_ref: aUri, buyer_ref: adaUri, quantity: 2, amount: 25, purchase_date: "2026-01-05" });
  const t2 = await make("ticket", { booking_ref: bUri, bookable_ref: aUri, buyer_ref: adaUri, amount: 12.5, purchase_date: "2026-01-03" });
  await make("ticket", { booking_ref: bUri, bookable_ref: aUri, buyer_ref: adaUri, amount: 12.5, status: "cancelled" });
  await make("ticket", { booking_ref: bUri, bookable_ref: aUri, buyer_ref: `/alpha/person/${grace}/`, amount: 12.5 });
  await make("payment", { amount: 20, payment_date: "2026-01-05", ticket_ref: `/alpha/ticket/${t1}/` });
  await make("payment", { amount: 17.5, payment_date: "2026-01-06", booking_ref: bUri, person_ref: adaUri });
  await make("payment", { amount: 12.5, payment_date: "2026-01-06", booking_ref: bUri, person_ref: `/alpha/person/${grace}/` });
  return { ada, grace, invoice, graceInvoice, member, plan, booking, adult, t1, t2 };
}

describe.each(EVERY_ADAPTER)("invoices gateway on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("an invoice record: lines, totals (half away from zero), payments paid and scheduled, buyer, links", async () => {
    const t = await setup();
    const s = await seedFinance(t);
    const res = await t.call("GET", `/invoices/v2/alpha/invoice/${s.invoice}`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      id: "INV-7",
      invoice_uri: `/alpha/invoice/${s.invoice}/`,
      date: "2026-01-10",
      buyer_ref: `/alpha/person/${s.ada}/`,
      billing_contact: `/alpha/person/${s.ada}/`,
      buyer: { buyer_name: "Ada Lovelace", buyer_email: "Member@Example.org", buyer_telephone: "+44 1", buyer_address: ["1 Analytical Row"], buyer_locality: "London", buyer_postal_code: "N1 1AA", buyer_country: "GB", buyer_region: null, buyer_vat_number: null },
      invoice_currency: "gbp",
      currency: "gbp",
      total_before_tax: 202.35,
      tax_total: 40,
      total_tax: 40,
      total: 242.35,
      total_paid: 100,
      total_scheduled: 50,
      number_of_payments: 2,
      due: 142.35,
      status: "part-paid",
      purchase_order_no: "PO-1",
      for_the_attention_of: null,
      config: { flock_name: "Alpha Society", default_currency: "gbp", template: "invoice-a4", address: null },
    });
    expect(body.line_items).toEqual([
      { name: "Hall hire", price: 100, quantity: 2, tax: "standard", tax_rate: 0.2, currency: "gbp", total_before_tax: 200, tax_total: 40, total: 240, total_float: 240, tax_total_float: 40 },
      { name: "Coffee", price: 2.345, quantity: 1, tax_rate: 0, currency: "gbp", total_before_tax: 2.35, tax_total: 0, total: 2.35, total_float: 2.35, tax_total_float: 0 },
    ]);
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.signed_invoice_uri).toBe(`/invoices/v2/alpha/invoice/${s.invoice}/${body.signature}`);
    expect(body.links).toEqual([{ rel: "pdf", href: `/selfservice-pdf/v2/alpha/invoice/${s.invoice}/invoice/${body.signature}/pdf`, filename: "invoice-INV-7.pdf", prompt: "Download PDF" }]);

    // The scheduled payment counts once its date comes.
    t.clock.set("2026-02-01T09:00:00.000Z");
    expect(await json(await t.call("GET", `/invoices/v2/alpha/invoice/${s.invoice}`, { key: KEYS.alice }))).toMatchObject({ total_paid: 150, total_scheduled: 0, due: 92.35 });
  });

  run("a membership and an order as invoices", async () => {
    const t = await setup();
    const s = await seedFinance(t);
    const m = await json(await t.call("GET", `/invoices/v2/alpha/membership/${s.member}/`, { key: KEYS.alice }));
    expect(m).toMatchObject({
      id: s.member,
      date: "2026-01-01",
      buyer_ref: `/alpha/person/${s.ada}/`,
      context: `/alpha/member/${s.member}/`,
      line_items: [{ name: "Annual", price: 30, quantity: 1, ref: `/alpha/member/${s.member}/`, total: 30 }],
      total: 30,
      total_paid: 30,
      due: 0,
      status: "paid",
    });
    expect(m.links[0].href).toContain(`/alpha/member/${s.member}/invoice/`);

    const o1 = await json(await t.call("GET", `/invoices/v2/alpha/order/${s.t1}`, { key: KEYS.alice }));
    expect(o1).toMatchObject({
      id: s.t1,
      invoice_uri: `/alpha/ticket/${s.t1}/`,
      date: "2026-01-03",
      buyer_ref: `/alpha/person/${s.ada}/`,
      context: `/alpha/booking/${s.booking}/`,
      line_items: [{ name: "Adult", price: 12.5, quantity: 3, ref: `/alpha/bookable/${s.adult}/`, total: 37.5 }],
      total: 37.5,
      total_paid: 37.5,
      number_of_payments: 2,
      status: "paid",
    });
    const o2 = await json(await t.call("GET", `/invoices/v2/alpha/order/${s.t2}`, { key: KEYS.alice }));
    expect(o2.line_items).toEqual(o1.line_items);
    expect(o2.total_paid).toBe(37.5);
  });

  run("signed links: no key needed, checked before anything is read; wrong or foreign signatures 401; deletion revokes", async () => {
    const t = await setup();
    const s = await seedFinance(t);
    const keyed = await json(await t.call("GET", `/invoices/v2/alpha/invoice/${s.invoice}`, { key: KEYS.alice }));
    const signed = await t.call("GET", keyed.signed_invoice_uri);
    expect(signed.status).toBe(200);
    expect(signed.headers.get("cache-control")).toBe("private, no-store");
    expect(signed.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await json(signed)).toEqual(keyed);
    // A key sent with it is ignored, even one without access to the flock.
    expect((await t.call("GET", keyed.signed_invoice_uri, { key: KEYS.bob })).status).toBe(200);

    const other = await json(await t.call("GET", `/invoices/v2/alpha/invoice/${s.graceInvoice}`, { key: KEYS.alice }));
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "getRecords")];
    for (const path of [
      `/invoices/v2/alpha/invoice/${s.invoice}/${other.signature}`,
      `/invoices/v2/alpha/membership/${s.invoice}/${keyed.signature}`,
      `/invoices/v2/alpha/invoice/${s.invoice}/${"0".repeat(64)}`,
      `/invoices/v2/alpha/invoice/${s.invoice}/nothex`,
      `/invoices/v2/beta/invoice/${s.invoice}/${keyed.signature}`,
    ]) {
      const res = await t.call("GET", path, { key: KEYS.alice });
      expect(res.status, path).toBe(401);
      expect(await json(res)).toMatchObject({ title: "signature invalid", error: "signature invalid", type: "unauthorized" });
    }
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const unsigned = await t.call("GET", `/invoices/v2/alpha/invoice/${s.invoice}`);
    expect(unsigned.status).toBe(401);
    expect(await json(unsigned)).toMatchObject({ type: "unauthorized" });

    await t.engine.delete("alpha", "invoice", s.invoice);
    expect((await t.call("GET", keyed.signed_invoice_uri)).status).toBe(404);
    expect((await t.call("GET", `/invoices/v2/alpha/invoice/${s.invoice}`, { key: KEYS.alice })).status).toBe(404);
  });

  run("auth order, member tokens, bad type and wrong-type ids", async () => {
    const t = await setup();
    const s = await seedFinance(t);
    const path = `/invoices/v2/alpha/invoice/${s.invoice}`;
    expect((await t.call("GET", path, { key: KEYS.alice })).status).toBe(200);
    expect((await t.call("GET", path, { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", path.replace("alpha", "ghost"), { key: KEYS.admin })).status).toBe(404);
    // The member account's person is Ada: her invoice is readable, Grace's is a 404.
    const mine = await t.call("GET", path, { key: KEYS.member });
    expect(mine.status).toBe(200);
    expect((await json(mine)).buyer_ref).toBe(`/alpha/person/${s.ada}/`);
    expect((await t.call("GET", `/invoices/v2/alpha/invoice/${s.graceInvoice}`, { key: KEYS.member })).status).toBe(404);

    const bad = await t.call("GET", `/invoices/v2/alpha/receipt/${s.invoice}`, { key: KEYS.alice });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ title: "invalid invoice_type", description: expect.stringContaining("invoice, membership, order"), type: "bad_request" });
    for (const [type, id] of [["invoice", s.ada], ["membership", s.invoice], ["order", s.booking], ["invoice", "x"]] as const) {
      const res = await t.call("GET", `/invoices/v2/alpha/${type}/${id}`, { key: KEYS.alice });
      expect(res.status, `${type} ${id}`).toBe(404);
      expect(await json(res)).toMatchObject({ type: "not_found" });
    }
  });
});

describe("invoicing settings", () => {
  it("come from the config file's invoicing key, strict like the rest", async () => {
    const config = parseConfig({ invoicing: [{ flock: "alpha", address: ["1 High St"], contact_email: "fin@example.org", vat_number: "GB1", default_currency: "eur" }] });
    const { createTestApp } = await import("./helpers/app.js");
    const t = await createTestApp();
    const app = createApp({ engine: t.engine, secret: "s".repeat(32), settings: { invoicing: config.invoicing } });
    const id = (await t.engine.create("alpha", "invoice", { line_items: [] })).id;
    const res = await app.request(`/invoices/v2/alpha/invoice/${id}`, { headers: { authorization: `Bearer ${KEYS.alice}` } });
    const body = await json(res);
    expect(body.config).toEqual({
      flock_name: "Alpha Society",
      default_currency: "eur",
      address: ["1 High St"],
      postal_code: null,
      contact_details: null,
      contact_email: "fin@example.org",
      contact_phone: null,
      logo_url: null,
      payment_details: null,
      payment_detail_notes: null,
      purchase_order_string: null,
      tax_name: null,
      vat_number: "GB1",
      template: "invoice-a4",
    });
    expect(body.signature).toBe(invoiceSignature(invoiceKey("s".repeat(32)), "alpha", "invoice", id));
    expect(body.status).toBe("unpaid");
    expect(() => parseConfig({ invoicing: [{ flock: "alpha", xero_code: "1" }] })).toThrow(/xero_code/);
    expect(() => parseConfig({ invoicing: [{ flock: "alpha" }, { flock: "alpha" }] })).toThrow(/invoicing/);
  });
});
