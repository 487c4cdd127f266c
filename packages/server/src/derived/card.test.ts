import { describe, expect, it } from "vitest";
import { CARD_EMPTY_VALUE, CARD_TEXT_MAX_CHARS, cardName, cardStatus, cardText, cardView, renderCard } from "./card.js";

const MEMBERSHIP = {
  member: "/demo/person/000000000000000000000001/",
  membership_number: "M-0042",
  membership_type: "Family",
  membership_record_status: "active",
  start_date: "2026-01-01",
  end_date: "2026-12-31",
};

function card(overrides: Partial<Parameters<typeof renderCard>[0]> = {}): string {
  return renderCard({
    flockName: "Demo Society",
    person: { formatted_name: "Ada Lovelace", first_name: "Ada", last_name: "Lovelace" },
    membership: MEMBERSHIP,
    ...overrides,
  });
}

describe("renderCard", () => {
  it("is a complete HTML document", () => {
    const html = card();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });

  it.each([
    { name: "member's name", text: "Ada Lovelace" },
    { name: "flock's name", text: "Demo Society" },
    { name: "membership number", text: "M-0042" },
    { name: "membership type", text: "Family" },
    { name: "status", text: ">active<" },
    { name: "start date, readable", text: "1 January 2026" },
    { name: "start date, machine-readable", text: 'datetime="2026-01-01"' },
    { name: "end date, readable", text: "31 December 2026" },
    { name: "title naming the member", text: "<title>Membership card: Ada Lovelace</title>" },
  ])("shows the $name", ({ text }) => {
    expect(card()).toContain(text);
  });

  it.each([
    { name: "external stylesheet", pattern: /<link\b/i },
    { name: "script", pattern: /<script\b/i },
    { name: "image", pattern: /<img\b/i },
    { name: "src attribute", pattern: /\bsrc=/i },
    { name: "href attribute", pattern: /\bhref=/i },
    { name: "CSS url()", pattern: /url\(/i },
    { name: "CSS @import", pattern: /@import/i },
  ])("loads no external asset ($name)", ({ pattern }) => {
    expect(card()).not.toMatch(pattern);
  });

  it("has print styles", () => {
    expect(card()).toContain("@media print");
  });

  it.each([
    {
      name: "a script in the member's name",
      input: { person: { formatted_name: "<script>alert(1)</script>" } },
      raw: "<script>alert(1)</script>",
      escaped: "&lt;script&gt;alert(1)&lt;/script&gt;",
    },
    {
      name: "markup and ampersand in the flock's name",
      input: { flockName: "Tom & Jerry's <b>Club</b>" },
      raw: "<b>Club</b>",
      escaped: "Tom &amp; Jerry&#39;s &lt;b&gt;Club&lt;/b&gt;",
    },
    {
      name: "quotes in the membership number",
      input: { membership: { ...MEMBERSHIP, membership_number: `"><img src=x onerror=alert(1)>` } },
      raw: "<img src=x",
      escaped: "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
    },
    {
      name: "markup in the status",
      input: { membership: { ...MEMBERSHIP, membership_record_status: "<i>x</i>" } },
      raw: "<i>x</i>",
      escaped: "&lt;i&gt;x&lt;/i&gt;",
    },
  ])("escapes $name", ({ input, raw, escaped }) => {
    const html = card(input);
    expect(html).not.toContain(raw);
    expect(html).toContain(escaped);
  });

  it("shows a dash for fields the membership lacks", () => {
    const html = card({ membership: { member: MEMBERSHIP.member } });
    expect(html.split(CARD_EMPTY_VALUE).length - 1).toBe(5);
  });

  it.each([
    { name: "a number", value: 42, shown: ">42<" },
    { name: "a list", value: ["A", null, "B"], shown: ">A, B<" },
    { name: "a boolean", value: true, shown: ">Yes<" },
  ])("shows a membership number that is $name", ({ value, shown }) => {
    expect(card({ membership: { ...MEMBERSHIP, membership_number: value } })).toContain(shown);
  });

  it("shows an unparseable date as given", () => {
    const html = card({ membership: { ...MEMBERSHIP, end_date: "sometime" } });
    expect(html).toContain(">sometime<");
  });
});

describe("cardName", () => {
  it.each([
    { name: "formatted name", person: { formatted_name: "Dr Ada Lovelace", first_name: "Ada" }, expected: "Dr Ada Lovelace" },
    { name: "first and last name", person: { formatted_name: null, first_name: "Ada", last_name: "Lovelace" }, expected: "Ada Lovelace" },
    { name: "only a last name", person: { last_name: "Lovelace" }, expected: "Lovelace" },
    { name: "blank formatted name", person: { formatted_name: "  ", first_name: "Ada" }, expected: "Ada" },
    { name: "no naming data", person: { formatted_name: 7 }, expected: "Unknown member" },
    { name: "no person", person: null, expected: "Unknown member" },
  ])("$name → $expected", ({ person, expected }) => {
    expect(cardName(person)).toBe(expected);
  });
});

describe("cardStatus", () => {
  it.each([
    { name: "stored status wins", m: { membership_record_status: "lapsed", end_date: "2030-01-01" }, today: "2026-06-01", expected: "lapsed" },
    { name: "before the start", m: { start_date: "2026-07-01", end_date: "2027-06-30" }, today: "2026-06-01", expected: "pending" },
    { name: "after the end", m: { start_date: "2025-01-01", end_date: "2025-12-31" }, today: "2026-06-01", expected: "expired" },
    { name: "between the dates", m: { start_date: "2026-01-01", end_date: "2026-12-31" }, today: "2026-06-01", expected: "active" },
    { name: "on the last day", m: { end_date: "2026-06-01" }, today: "2026-06-01", expected: "active" },
    { name: "timestamps as dates", m: { end_date: "2026-05-31T23:59:59.000000" }, today: "2026-06-01", expected: "expired" },
    { name: "no dates", m: {}, today: "2026-06-01", expected: undefined },
    { name: "no today", m: { start_date: "2026-01-01" }, today: undefined, expected: undefined },
  ])("$name → $expected", ({ m, today, expected }) => {
    expect(cardStatus(m, today)).toBe(expected);
  });

  it("derives the shown status from the dates when given today", () => {
    const html = card({ membership: { membership_number: "1", end_date: "2020-01-01" }, today: "2026-01-15" });
    expect(html).toContain('class="status ended">expired<');
  });
});

describe("card texts are bounded before anything draws them (issue 20, point 1)", () => {
  it.each([
    { name: "short text", input: "Ada", expected: "Ada" },
    { name: "exactly the bound", input: "x".repeat(CARD_TEXT_MAX_CHARS), expected: "x".repeat(CARD_TEXT_MAX_CHARS) },
    { name: "one past the bound", input: "x".repeat(CARD_TEXT_MAX_CHARS + 1), expected: `${"x".repeat(CARD_TEXT_MAX_CHARS - 1)}…` },
    { name: "250,000 characters", input: "x".repeat(250_000), expected: `${"x".repeat(CARD_TEXT_MAX_CHARS - 1)}…` },
    { name: "astral characters at the bound (code points, not code units)", input: "😀".repeat(CARD_TEXT_MAX_CHARS), expected: "😀".repeat(CARD_TEXT_MAX_CHARS) },
    { name: "astral characters past it, never split", input: "😀".repeat(CARD_TEXT_MAX_CHARS + 5), expected: `${"😀".repeat(CARD_TEXT_MAX_CHARS - 1)}…` },
  ])("cardText: $name", ({ input, expected }) => {
    expect(cardText(input)).toBe(expected);
  });

  it("cuts the name, the flock's name and every value of the view, and so of the HTML card", () => {
    const long = "Wa".repeat(125_000);
    const view = cardView({ flockName: long, person: { first_name: long, last_name: "Long" }, membership: { membership_number: long, membership_type: { plan: long } } });
    for (const text of [view.name, view.flockName, ...view.rows.map((r) => r.value)]) expect([...text].length).toBeLessThanOrEqual(CARD_TEXT_MAX_CHARS);
    expect(view.name).toBe(`${long.slice(0, CARD_TEXT_MAX_CHARS - 1)}…`);
    const html = renderCard({ flockName: "Demo", person: { first_name: long }, membership: {} });
    expect(html.length).toBeLessThan(10_000);
    expect(html).toContain(`<h1 class="name">${long.slice(0, CARD_TEXT_MAX_CHARS - 1)}…</h1>`);
  });
});
