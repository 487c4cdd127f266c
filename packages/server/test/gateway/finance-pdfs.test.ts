/**
 * Issue 21, point 4 (P2), spec v2-gateway section 8: the finance PDFs on every storage
 * adapter. Each PDF is read back with PDF.js (helpers/pdf): the invoice's buyer, lines and
 * totals, the giving statement's gifts and totals per currency. Refusals come after a
 * positive control: wrong signatures before any read, other flocks' keys, another person's
 * statement through a member token; bad templates and years 400 in the v2 error shape,
 * nothing written.
 */
import { MAX_TEXT_VALUE_LENGTH } from "@records-service/core";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.js";
import { parseConfig } from "../../src/config.js";
import { createTestApp, KEYS, TEST_PASSWORD_COST, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { readPdf } from "../helpers/pdf.js";
import { snapshot } from "../helpers/snapshot.js";

const json = async (res: Response) => (await res.json()) as Record<string, any>;
const pdfOf = async (res: Response) => readPdf(new Uint8Array(await res.arrayBuffer()));
const ERROR_KEYS = ["description", "error", "title", "type"];

async function seedInvoices(t: TestApp) {
  const make = (type: string, data: Record<string, unknown>) => t.engine.create("alpha", type, data).then((r) => r.id);
  const ada = await make("person", { first_name: "Ada", last_name: "Lovelace", email: ["member@example.org;home"], address_lines: ["1 Analytical Row"], locality: "London", postal_code: "N1 1AA", country: "GB" });
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
  const other = await make("invoice", { person_ref: adaUri, line_items: [{ name: "x", price: 1 }] });
  const plan = await make("membership_type", { name: "Annual", amount: 30 });
  const member = await make("member", { member: adaUri, membership_type: `/alpha/membership_type/${plan}/`, start_date: "2026-01-01" });
  const booking = await make("booking", { title: "Gala", start_date: "2026-02-01" });
  const adult = await make("bookable", { booking_ref: `/alpha/booking/${booking}/`, name: "Adult", amount: 12.5 });
  const ticket = await make("ticket", { booking_ref: `/alpha/booking/${booking}/`, bookable_ref: `/alpha/bookable/${adult}/`, buyer_ref: adaUri, quantity: 3, amount: 37.5 });
  return { ada, invoice, other, member, ticket };
}

/** The signed PDF link of an invoice, from its keyed JSON answer. */
async function pdfLink(t: TestApp, type: string, id: string): Promise<string> {
  const body = await json(await t.call("GET", `/invoices/v2/alpha/${type}/${id}`, { key: KEYS.alice }));
  return body.links[0].href as string;
}

async function seedGifts(t: TestApp) {
  const make = (type: string, data: Record<string, unknown>) => t.engine.create("alpha", type, data).then((r) => r.id);
  const ada = await make("person", { first_name: "Ada", last_name: "Lovelace", email: ["member@example.org;home"], address_lines: ["1 Analytical Row"], locality: "London", postal_code: "N1 1AA" });
  const grace = await make("person", { first_name: "Grace", last_name: "Hopper" });
  const adaUri = `/alpha/person/${ada}/`;
  const graceUri = `/alpha/person/${grace}/`;
  const donation = `/alpha/donation/${await make("donation", { person_ref: adaUri, amount: 100 })}/`;
  const pledge = `/alpha/pledge/${await make("pledge", { person_ref: adaUri, currency: "eur" })}/`;
  const graceDonation = `/alpha/donation/${await make("donation", { person_ref: graceUri })}/`;
  // In the 2025-2026 tax year (6 April 2025 .. 5 April 2026):
  await make("payment", { donation_ref: donation, amount: 10, payment_date: "2025-04-06" }); // first day; payer: the donation's person
  await make("payment", { donation_ref: donation, amount: 20, payment_date: "2025-12-25", payment_reference: "GA-1" });
  await make("payment", { pledge_ref: pledge, person_ref: adaUri, amount: 5.5, payment_date: "2026-04-05" }); // last day; the pledge's currency
  await make("payment", { donation_ref: graceDonation, person_ref: adaUri, amount: 1, currency: "usd", payment_date: "2025-06-01" }); // Ada pays Grace's donation
  // Not Ada's gifts in that year:
  await make("payment", { donation_ref: donation, amount: 99, payment_date: "2025-04-05" }); // the day before
  await make("payment", { donation_ref: donation, amount: 99, payment_date: "2026-04-06" }); // the day after
  await make("payment", { donation_ref: donation, amount: 99, payment_date: "2025-07-01", status: "refunded" });
  await make("payment", { donation_ref: donation, person_ref: graceUri, amount: 99, payment_date: "2025-07-01" }); // Grace pays
  await make("payment", { donation_ref: graceDonation, amount: 99, payment_date: "2025-07-01" }); // Grace's donation
  await make("payment", { person_ref: adaUri, amount: 99, payment_date: "2025-07-01" }); // not a gift
  await make("payment", { donation_ref: donation, amount: 99 }); // undated
  const gone = await make("payment", { donation_ref: donation, amount: 99, payment_date: "2025-07-01" });
  await t.engine.delete("alpha", "payment", gone);
  return { ada, grace, adaUri, graceUri };
}

const STATEMENT = "/selfservice-pdf/v2/alpha/giving/taxyear/2025/2026/pdf";

describe.each(EVERY_ADAPTER)("finance PDFs on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));

  run("an invoice PDF through its signed link shows the flock, the buyer, each line and the totals", async () => {
    const t = await setup();
    const s = await seedInvoices(t);
    const href = await pdfLink(t, "invoice", s.invoice);
    expect(href).toMatch(new RegExp(`^/selfservice-pdf/v2/alpha/invoice/${s.invoice}/invoice/[0-9a-f]{64}/pdf$`));
    const res = await t.call("GET", href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="invoice-INV-7.pdf"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const pdf = await readPdf(bytes);
    expect(pdf.title).toBe("Invoice INV-7");
    expect(pdf.width).toBeCloseTo(595.28, 1);
    for (const line of [
      "Alpha Society",
      "Invoice INV-7",
      "Date 10 January 2026",
      "Status part-paid",
      "Purchase order PO-1",
      "Ada Lovelace",
      "1 Analytical Row",
      "London",
      "N1 1AA",
      "member@example.org",
      "Item Quantity Price Tax Total",
      "Hall hire 2 GBP 100.00 GBP 40.00 GBP 240.00",
      "Coffee 1 GBP 2.35 GBP 0.00 GBP 2.35",
      "Subtotal GBP 202.35",
      "Tax GBP 40.00",
      "Total GBP 242.35",
      "Paid GBP 100.00",
      "Scheduled GBP 50.00",
      "Due GBP 142.35",
    ]) {
      expect(pdf.lines, line).toContain(line);
    }
    // The hosted service's template name is the same template; a key sent is ignored.
    const sheep = await t.call("GET", `${href}?template=sheep-invoice-a4`, { key: KEYS.bob });
    expect(sheep.status).toBe(200);
    expect(new Uint8Array(await sheep.arrayBuffer())).toEqual(bytes);
    expect((await t.call("GET", `${href}/?template=invoice-a4`)).status).toBe(200);
  });

  run("a membership and an order as PDFs, by member and ticket", async () => {
    const t = await setup();
    const s = await seedInvoices(t);
    const membership = await t.call("GET", await pdfLink(t, "membership", s.member));
    expect(membership.status).toBe(200);
    const m = await pdfOf(membership);
    expect(m.lines).toContain("Annual 1 GBP 30.00 GBP 0.00 GBP 30.00");
    expect(m.lines).toContain("Due GBP 30.00");
    expect(m.lines).toContain("Status unpaid");
    const orderLink = await pdfLink(t, "order", s.ticket);
    expect(orderLink).toContain(`/alpha/ticket/${s.ticket}/invoice/`);
    const order = await pdfOf(await t.call("GET", orderLink));
    expect(order.lines).toContain("Adult 3 GBP 12.50 GBP 0.00 GBP 37.50");
    expect(order.lines).toContain("Total GBP 37.50");
    // The same signature under the other membership word names another record type: 404.
    const asMembership = orderLink.replace("/ticket/", "/member/");
    expect((await t.call("GET", asMembership)).status).toBe(401); // signed as an order, not a membership
    const memberLink = await pdfLink(t, "membership", s.member);
    const wrongWord = await t.call("GET", memberLink.replace("/member/", "/membership/"));
    expect(wrongWord.status).toBe(404);
  });

  run("refuses wrong signatures before any read, unknown templates and resource types, deleted invoices", async () => {
    const t = await setup();
    const s = await seedInvoices(t);
    const href = await pdfLink(t, "invoice", s.invoice);
    const other = await pdfLink(t, "invoice", s.other);
    const signature = href.split("/")[7]!;
    const otherSignature = other.split("/")[7]!;
    // Positive control first.
    expect((await t.call("GET", href)).status).toBe(200);
    const before = await snapshot(t.storage);
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "getRecords"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "listReferencing"), vi.spyOn(t.storage, "listRecords")];
    for (const path of [
      href.replace(signature, otherSignature), // another invoice's
      `/selfservice-pdf/v2/alpha/member/${s.invoice}/invoice/${signature}/pdf`, // another type's
      href.replace(signature, "0".repeat(64)),
      href.replace(signature, "nothex"),
      href.replace("/alpha/", "/beta/"), // another flock's
    ]) {
      const res = await t.call("GET", path, { key: KEYS.admin });
      expect(res.status, path).toBe(401);
      const body = await json(res);
      expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
      expect(body).toMatchObject({ title: "signature invalid", error: "signature invalid", type: "unauthorized" });
    }
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const unknownTemplate = await t.call("GET", `${href}?template=letter`);
    expect(unknownTemplate.status).toBe(400);
    const body = await json(unknownTemplate);
    expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
    expect(body).toMatchObject({ title: "unknown template", type: "bad_request", description: expect.stringContaining("invoice-a4") });
    for (const word of ["person", "order", "booking"]) {
      const res = await t.call("GET", href.replace("/alpha/invoice/", `/alpha/${word}/`));
      expect(res.status, word).toBe(404);
      expect((await json(res)).type).toBe("not_found");
    }
    expect(await snapshot(t.storage)).toBe(before);
    await t.engine.delete("alpha", "invoice", s.invoice);
    const gone = await t.call("GET", href);
    expect(gone.status).toBe(404);
    expect((await json(gone)).type).toBe("not_found");
  });

  run("hostile long values and many lines: cut to fit with \"...\", over several pages", async () => {
    const t = await setup();
    const buyer = await t.engine.create("alpha", "person", { first_name: "Wa".repeat(20_000), last_name: "Long", address_lines: ["x".repeat(MAX_TEXT_VALUE_LENGTH)] });
    const lines = Array.from({ length: 120 }, (_, i) => ({ name: i === 0 ? "N".repeat(MAX_TEXT_VALUE_LENGTH) : `Line ${i}`, price: 1 }));
    const id = (await t.engine.create("alpha", "invoice", { person_ref: `/alpha/person/${buyer.id}/`, line_items: lines })).id;
    const res = await t.call("GET", await pdfLink(t, "invoice", id));
    expect(res.status).toBe(200);
    const pdf = await pdfOf(res);
    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.lines).toContainEqual(expect.stringMatching(/^(Wa)+W?\.\.\.$/));
    expect(pdf.lines).toContainEqual(expect.stringMatching(/^x+\.\.\.$/));
    expect(pdf.lines).toContainEqual(expect.stringMatching(/^N+\.\.\. 1 GBP 1\.00 GBP 0\.00 GBP 1\.00$/));
    for (const run of pdf.runs) expect(run.x + run.width, run.text).toBeLessThanOrEqual(595.28 - 50 + 0.01);
  });

  run("a giving statement: the member's own gifts in the tax year, totals per currency", async () => {
    const t = await setup();
    const s = await seedGifts(t);
    const res = await t.call("GET", STATEMENT, { key: KEYS.member });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="giving-statement-2025-2026.pdf"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const pdf = await readPdf(bytes);
    const table = pdf.lines.slice(pdf.lines.indexOf("Date Reference Amount"));
    expect(pdf.lines.slice(0, 7)).toEqual([
      "Alpha Society",
      "Giving statement, tax year 2025-2026",
      "From 6 April 2025 to 5 April 2026",
      "Ada Lovelace",
      "1 Analytical Row",
      "London",
      "N1 1AA",
    ]);
    expect(table).toEqual([
      "Date Reference Amount",
      "6 April 2025 - GBP 10.00",
      "1 June 2025 - USD 1.00",
      "25 December 2025 GA-1 GBP 20.00",
      "5 April 2026 - EUR 5.50",
      "Total EUR 5.50",
      "Total GBP 30.00",
      "Total USD 1.00",
    ]);
    // A core key names the person: the same statement; with the member's own URI too.
    const keyed = await t.call("GET", `${STATEMENT}?person_uri=${encodeURIComponent(s.adaUri)}`, { key: KEYS.alice });
    expect(new Uint8Array(await keyed.arrayBuffer())).toEqual(bytes);
    expect((await t.call("GET", `${STATEMENT}?person_uri=${encodeURIComponent(s.adaUri)}`, { key: KEYS.member })).status).toBe(200);
    // The years before hold the day-before gift only.
    const earlier = await pdfOf(await t.call("GET", "/selfservice-pdf/v2/alpha/giving/taxyear/2024/2025/pdf/", { key: KEYS.member }));
    expect(earlier.lines).toContain("5 April 2025 - GBP 99.00");
    expect(earlier.lines).toContain("Total GBP 99.00");
  });

  run("a statement without gifts says so (200)", async () => {
    const t = await setup();
    await seedGifts(t);
    const lin = (await t.engine.create("alpha", "person", { first_name: "Lin", last_name: "Giver" })).id;
    const res = await t.call("GET", `${STATEMENT}?person_uri=${encodeURIComponent(`/alpha/person/${lin}`)}`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const pdf = await pdfOf(res);
    expect(pdf.lines).toContain("Lin Giver");
    expect(pdf.lines).toContain("No gifts are recorded for this tax year.");
    expect(pdf.lines.some((l) => l.startsWith("Total"))).toBe(false);
  });

  run("statement refusals: keys of other flocks and strangers before any read; another person's through a member token; bad years and persons", async () => {
    const t = await setup();
    const s = await seedGifts(t);
    const path = `${STATEMENT}?person_uri=${encodeURIComponent(s.adaUri)}`;
    // Positive controls first.
    expect((await t.call("GET", path, { key: KEYS.alice })).status).toBe(200);
    expect((await t.call("GET", STATEMENT, { key: KEYS.member })).status).toBe(200);
    const invoice = (await t.engine.create("alpha", "invoice", {})).id;
    const before = await snapshot(t.storage);
    const reads = [vi.spyOn(t.storage, "getRecord"), vi.spyOn(t.storage, "getRecords"), vi.spyOn(t.storage, "scanRecords"), vi.spyOn(t.storage, "listReferencing"), vi.spyOn(t.storage, "listRecords")];
    expect((await t.call("GET", path, { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", path)).status).toBe(401);
    expect((await t.call("GET", STATEMENT.replace("alpha", "beta"), { key: KEYS.member })).status).toBe(403);
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const other = await t.call("GET", `${STATEMENT}?person_uri=${encodeURIComponent(s.graceUri)}`, { key: KEYS.member });
    expect(other.status).toBe(403);
    expect(await json(other)).toMatchObject({ type: "forbidden" });

    const bad: [string, string][] = [
      ["/selfservice-pdf/v2/alpha/giving/taxyear/2025/2027/pdf", "bad tax year"],
      ["/selfservice-pdf/v2/alpha/giving/taxyear/2026/2025/pdf", "bad tax year"],
      ["/selfservice-pdf/v2/alpha/giving/taxyear/25/26/pdf", "bad tax year"],
      ["/selfservice-pdf/v2/alpha/giving/taxyear/abcd/abce/pdf", "bad tax year"],
      ["/selfservice-pdf/v2/alpha/giving/taxyear/2025/2026/pdf", "missing person_uri"],
      [`${STATEMENT}?person_uri=/alpha/invoice/${invoice}/`, "bad person_uri"],
      [`${STATEMENT}?person_uri=/beta/person/${s.ada}/`, "bad person_uri"],
      [`${STATEMENT}?person_uri=nonsense`, "bad person_uri"],
    ];
    for (const [p, title] of bad) {
      const res = await t.call("GET", p, { key: KEYS.alice });
      expect(res.status, p).toBe(400);
      const body = await json(res);
      expect(Object.keys(body).sort(), p).toEqual(ERROR_KEYS);
      expect(body, p).toMatchObject({ title, error: title, type: "bad_request" });
    }
    expect((await t.call("GET", "/selfservice-pdf/v2/alpha/giving/taxyear/2025/2027/pdf", { key: KEYS.member })).status).toBe(400);
    expect(await snapshot(t.storage)).toBe(before);
    expect((await t.call("GET", `${STATEMENT}?person_uri=/alpha/person/${"0".repeat(24)}/`, { key: KEYS.alice })).status).toBe(404);
    await t.engine.delete("alpha", "person", s.grace);
    expect((await t.call("GET", `${STATEMENT}?person_uri=${encodeURIComponent(s.graceUri)}`, { key: KEYS.alice })).status).toBe(404);
  });
});

describe("the giving tax year's first day", () => {
  it("comes from the flock's invoicing entry (tax_year_start), checked like the rest of the config", async () => {
    const config = parseConfig({ invoicing: [{ flock: "alpha", tax_year_start: "01-01" }] });
    const t = await createTestApp();
    const app = createApp({ engine: t.engine, secret: "s".repeat(32), settings: { invoicing: config.invoicing }, passwordCost: TEST_PASSWORD_COST });
    const ada = (await t.engine.create("alpha", "person", { first_name: "Ada", email: ["member@example.org;home"] })).id;
    const donation = `/alpha/donation/${(await t.engine.create("alpha", "donation", { person_ref: `/alpha/person/${ada}/` })).id}/`;
    for (const date of ["2025-01-01", "2025-12-31", "2026-01-01", "2024-12-31"]) await t.engine.create("alpha", "payment", { donation_ref: donation, amount: 1, payment_date: date });
    const res = await app.request(STATEMENT, { headers: { authorization: `Bearer ${KEYS.member}` } });
    const pdf = await pdfOf(res);
    expect(pdf.lines).toContain("From 1 January 2025 to 31 December 2025");
    expect(pdf.lines.filter((l) => l.endsWith("GBP 1.00"))).toEqual(["1 January 2025 - GBP 1.00", "31 December 2025 - GBP 1.00"]);
    expect(pdf.lines).toContain("Total GBP 2.00");
    for (const wrong of ["02-29", "4-6", "13-01", "04-31"]) {
      expect(() => parseConfig({ invoicing: [{ flock: "alpha", tax_year_start: wrong }] }), wrong).toThrow(/tax_year_start/);
    }
  });
});
