/**
 * Issue 14, point 6: the member card as a PDF. Each card is read back with PDF.js
 * (pdfjs-dist, in JavaScript: nothing but Node is needed): its text must name the member,
 * each label must sit on the line of its value, and the page must be card-shaped, painted
 * and hold every text inside its margins. Issue 20, point 1: a name of 250,000 characters and
 * a value of the longest text a field may hold are cut to fit, with "...".
 */
import { MAX_TEXT_VALUE_LENGTH } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { readPdf, type PdfPage } from "../helpers/pdf.js";

/** The card's page in points and the margin every text keeps (derived/card-pdf.ts). */
const PAGE = { width: 485, height: 306, margin: 24 };

/** Every text run lies inside the page, left and right margins kept. */
function expectInsideMargins(pdf: PdfPage): void {
  for (const run of pdf.runs) {
    expect(run.x, run.text).toBeGreaterThanOrEqual(PAGE.margin - 0.01);
    expect(run.x + run.width, run.text).toBeLessThanOrEqual(PAGE.width - PAGE.margin + 0.01);
    expect(run.y, run.text).toBeGreaterThan(0);
    expect(run.y, run.text).toBeLessThan(PAGE.height);
  }
}

async function members(t: TestApp) {
  const mine = `/alpha/person/${await seed(t, "alpha", "person", { first_name: "Mia", last_name: "Müller-Ωstrand", email: ["member@example.org;home"] })}/`;
  const other = `/alpha/person/${await seed(t, "alpha", "person", { first_name: "Otto", last_name: "Other" })}/`;
  const plan = `/alpha/membership_type/${await seed(t, "alpha", "membership_type", { name: "Gold" })}/`;
  const myCard = await seed(t, "alpha", "member", { member: mine, membership_type: plan, membership_number: "M-0042", start_date: "2026-01-01", end_date: "2026-12-31" });
  const otherCard = await seed(t, "alpha", "member", { member: other, membership_number: "M-0043" });
  return { myCard, otherCard };
}

describe.each(EVERY_ADAPTER)("PDF member card on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));

  run("is a PDF whose text names the member and the plan, drawn as a card-shaped, non-blank page", async () => {
    const t = await setup();
    const { myCard } = await members(t);
    for (const [key, slash] of [[KEYS.member, ""], [KEYS.alice, "/"]] as const) {
      const res = await t.call("GET", `/selfservice-pdf/v2/alpha/member/${myCard}/card${slash}`, { key });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
      const pdf = await readPdf(bytes);
      // Ω is not in the standard fonts' encoding: shown as "?", the rest as written.
      expect(pdf.lines).toContain("Mia Müller-?strand");
      expect(pdf.lines).toContain("Alpha Society");
      expect(pdf.lines).toContain("Membership number M-0042");
      expect(pdf.lines).toContain("Type Gold");
      expect(pdf.lines).toContain("End date 31 December 2026");
      expect(pdf.title).toBe("Membership card: Mia Müller-?strand");
      expect(pdf.pages).toBe(1);
      expect(pdf.width / pdf.height).toBeCloseTo(85.6 / 53.98, 1);
      expect(pdf.shapes).toBeGreaterThan(0); // the header band
      expectInsideMargins(pdf);
    }
  });

  run("a name of 250,000 characters is cut to fit the card, with \"...\"", async () => {
    const t = await setup();
    // Its formatted and sortable names repeat it: three copies are about as much as a record may hold.
    const first = "Wa".repeat(125_000);
    const person = `/alpha/person/${await seed(t, "alpha", "person", { first_name: first, last_name: "Long" })}/`;
    const card = await seed(t, "alpha", "member", { member: person, membership_number: "L".repeat(MAX_TEXT_VALUE_LENGTH) });
    const res = await t.call("GET", `/selfservice-pdf/v2/alpha/member/${card}/card`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const pdf = await readPdf(new Uint8Array(await res.arrayBuffer()));
    const name = pdf.lines.find((l) => l.startsWith("WaWa"))!;
    expect(name).toMatch(/^(Wa)+W?\.\.\.$/);
    expect(name.length).toBeGreaterThan(20); // as much as fits is shown
    expect(pdf.lines).toContainEqual(expect.stringMatching(/^Membership number L+\.\.\.$/));
    // The title holds the name as cut for the card (300 characters, ending in "…"), never all of it.
    expect(pdf.title).toBe(`Membership card: ${first.slice(0, 299)}…`);
    expectInsideMargins(pdf);
  });

  run("refuses what it must: other members' cards, foreign flocks, no key, unknown or deleted members", async () => {
    const t = await setup();
    const { myCard, otherCard } = await members(t);
    const gone = await seed(t, "alpha", "member", { membership_number: "X" });
    await t.engine.delete("alpha", "member", gone);
    const cases: [string, string | undefined, number][] = [
      [`/selfservice-pdf/v2/alpha/member/${otherCard}/card`, KEYS.member, 404],
      [`/selfservice-pdf/v2/alpha/member/${myCard}/card`, KEYS.bob, 403],
      [`/selfservice-pdf/v2/alpha/member/${myCard}/card`, undefined, 401],
      [`/selfservice-pdf/v2/nowhere/member/${myCard}/card`, KEYS.admin, 404],
      [`/selfservice-pdf/v2/alpha/member/${"0".repeat(24)}/card`, KEYS.alice, 404],
      [`/selfservice-pdf/v2/alpha/member/not-an-id/card`, KEYS.alice, 404],
      [`/selfservice-pdf/v2/alpha/member/${gone}/card`, KEYS.alice, 404],
    ];
    for (const [path, key, status] of cases) {
      const res = await t.call("GET", path, key ? { key } : {});
      expect(res.status, path).toBe(status);
      expect(Object.keys((await res.json()) as object).sort(), path).toEqual(["description", "error", "title", "type"]);
    }
  });
});
