/**
 * The client's finance PDF and form response methods against a running server: an invoice
 * PDF through its signed link (no key), a member's giving statement and a core key's for a
 * named person, and form responses started, allocated and released by a member.
 */
import type { RunningServer } from "@records-service/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, RecordsApiError, type RecordsClient } from "../src/index.js";
import { APPLICATION, STAFF, testServer } from "./server.js";

const MEMBER = { flock: "demo", email: "ada@example.org", password: "member test password 1" };
const text = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

describe("the client's finance PDFs and form responses", () => {
  let server: RunningServer;
  let staff: RecordsClient;
  let member: RecordsClient;
  let adaUri: string;

  beforeAll(async () => {
    server = await testServer({ manualClock: "2026-01-15T10:00:00Z" });
    staff = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    adaUri = (await staff.records("demo", "person").create({ first_name: "Ada", last_name: "Lovelace", email: [`${MEMBER.email};home`] })).uri as string;
    await staff.createMember("demo", MEMBER.email, MEMBER.password);
    member = createClient({ baseUrl: server.url, application: APPLICATION, credentials: MEMBER });
  });
  afterAll(() => server?.close());

  it("invoices: the PDF through the signed link, without a key; a wrong signature is a RecordsApiError", async () => {
    const id = ((await staff.records("demo", "invoice").create({ person_ref: adaUri, line_items: [{ name: "Hall", price: 10 }] })).uri as string).split("/")[3]!;
    const invoice = await staff.invoices("demo").get("invoice", id);
    const anonymous = createClient({ baseUrl: server.url, application: APPLICATION });
    const pdf = await anonymous.invoices("demo").pdf("invoice", id, invoice.signature);
    expect(text(pdf.slice(0, 5))).toBe("%PDF-");
    expect(await anonymous.invoices("demo").pdf("invoice", id, invoice.signature, { template: "sheep-invoice-a4" })).toEqual(pdf);
    const err = await anonymous.invoices("demo").pdf("invoice", id, "0".repeat(64)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordsApiError);
    expect(err).toMatchObject({ status: 401, title: "signature invalid" });
  });

  it("giving statements: the member's own, and a core key's for a named person", async () => {
    const donation = (await staff.records("demo", "donation").create({ person_ref: adaUri })).uri as string;
    await staff.records("demo", "payment").create({ donation_ref: donation, amount: 25, payment_date: "2025-05-01" });
    const own = await member.invoices("demo").givingStatement(2025);
    expect(text(own.slice(0, 5))).toBe("%PDF-");
    expect(await staff.invoices("demo").givingStatement(2025, { personUri: adaUri })).toEqual(own);
    await expect(staff.invoices("demo").givingStatement(2025)).rejects.toMatchObject({ status: 400, title: "missing person_uri" });
  });

  it("form responses: a member starts two, allocates one and releases it", async () => {
    const formUri = (await staff.records("demo", "form").create({ name: "Certificate" })).uri as string;
    const started = await member.forms("demo").startResponses(formUri, 2);
    expect(started).toMatchObject({ form_ref: formUri, quantity: 2 });
    expect(started.form_responses[0]!.data.requested_by_ref).toEqual({ display_value: "Ada Lovelace", ref: adaUri });
    const id = started.form_responses[0]!.uri.split("/")[3]!;
    const allocated = await member.forms("demo").allocate(id, adaUri);
    expect(allocated.data.contact_ref).toEqual({ display_value: "Ada Lovelace", ref: adaUri });
    expect((await member.forms("demo").release(id)).data.contact_ref).toBeNull();
    await expect(staff.forms("demo").startResponses(formUri, 51)).rejects.toMatchObject({ status: 400, title: "bad quantity" });
  });
});
