/**
 * Issue 14, point 6: the member card as a PDF. Each card is read back with Debian's
 * poppler-utils: `pdftotext` must find the member's name, and `pdftoppm` must draw it as a
 * card-shaped image that is not blank. (CI installs poppler-utils; without it these fail.)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { decodePng } from "../../src/derived/png-test-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "card-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text (`pdftotext -layout`) and its first page as a PNG at 72 dpi (`pdftoppm`). */
function readPdf(bytes: Uint8Array, name: string): { text: string; png: ReturnType<typeof decodePng> } {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  execFileSync("pdftoppm", ["-png", "-r", "72", "-singlefile", file, join(dir, name)]);
  return { text, png: decodePng(new Uint8Array(readFileSync(join(dir, `${name}.png`)))) };
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
      const { text, png } = readPdf(bytes, `${name}-${slash ? "core" : "member"}`);
      // Ω is not in the standard fonts' encoding: shown as "?", the rest as written.
      expect(text).toContain("Mia Müller-?strand");
      expect(text).toContain("Alpha Society");
      expect(text).toMatch(/Membership number\s+M-0042/);
      expect(text).toMatch(/Type\s+Gold/);
      expect(text).toMatch(/End date\s+31 December 2026/);
      expect(png.width / png.height).toBeCloseTo(85.6 / 53.98, 1);
      expect(new Set(png.pixels).size).toBeGreaterThan(3);
    }
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
