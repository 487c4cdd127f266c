import { createSequentialIds } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { GLYPHS, GLYPH_COLUMNS, GLYPH_ROWS } from "./avatar-font.js";
import {
  AVATAR_DEFAULT_SIZE,
  avatarColour,
  avatarInitials,
  parseAvatarQuery,
  renderInitialsAvatar,
  renderInitialsPng,
  renderInitialsSvg,
  type AvatarSubject,
} from "./avatar.js";
import { decodePng } from "./png-test-helpers.js";

const ID = "6930f1c2a1b2c3d4e5000001";
const ADA: AvatarSubject = { id: ID, data: { first_name: "Ada", last_name: "Lovelace" }, displayValue: "Ada Lovelace" };

describe("avatarInitials", () => {
  it.each([
    { name: "first and last name", data: { first_name: "Ada", last_name: "Lovelace" }, expected: "AL" },
    { name: "lower case", data: { first_name: "ada", last_name: "lovelace" }, expected: "AL" },
    { name: "only a first name", data: { first_name: "Ada" }, expected: "A" },
    { name: "only a last name", data: { first_name: null, last_name: "Lovelace" }, expected: "L" },
    { name: "leading punctuation", data: { first_name: " 'Ada", last_name: "(Lovelace)" }, expected: "AL" },
    { name: "accented letters kept", data: { first_name: "émile", last_name: "Zola" }, expected: "ÉZ" },
    { name: "formatted name, first and last words", data: { formatted_name: "Ada King Lovelace" }, expected: "AL" },
    { name: "organisation name", data: { name: "Analytical Engines Ltd" }, expected: "AL" },
    { name: "one-word name", data: { name: "Babbage" }, expected: "B" },
    { name: "digits", data: { name: "42 Club" }, expected: "4C" },
    { name: "punctuation-only words skipped", data: { formatted_name: "Ada - Lovelace" }, expected: "AL" },
    { name: "non-string fields ignored", data: { first_name: 7, formatted_name: ["x"] }, expected: "?" },
    { name: "nothing at all", data: {}, expected: "?" },
  ])("$name → $expected", ({ data, expected }) => {
    expect(avatarInitials({ id: ID, data })).toBe(expected);
  });

  it.each([
    { name: "a display value", displayValue: "Grace Hopper", expected: "GH" },
    { name: "the empty placeholder", displayValue: "an empty person", expected: "?" },
    { name: "another empty placeholder", displayValue: "An empty organisation", expected: "?" },
    { name: "a blank display value", displayValue: "   ", expected: "?" },
  ])("from $name → $expected", ({ displayValue, expected }) => {
    expect(avatarInitials({ id: ID, data: {}, displayValue })).toBe(expected);
  });
});

describe("avatarColour", () => {
  const ids = Array.from({ length: 400 }, createSequentialIds("ab"));

  it("is the same for the same id and varies between ids", () => {
    expect(avatarColour(ID)).toEqual(avatarColour(ID));
    expect(new Set(ids.map((id) => avatarColour(id).hex)).size).toBeGreaterThan(100);
  });

  it("keeps white text at a contrast ratio of at least 4.5 for every hue", () => {
    for (const id of ids) {
      const { r, g, b, hex } = avatarColour(id);
      expect(hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(_contrastWithWhite(r, g, b), `${id} ${hex}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("renderInitialsPng", () => {
  it.each([16, 64, AVATAR_DEFAULT_SIZE, 512])("draws a %i px PNG that decodes to that many pixels", (size) => {
    const image = renderInitialsPng(ADA, size);
    expect(image.contentType).toBe("image/png");
    expect([...image.body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = decodePng(image.body);
    expect(png).toMatchObject({ width: size, height: size, bitDepth: 8, colourType: 2 });
    expect(png.pixels).toHaveLength(size * size);
  });

  it("has the id's colour as background and white ink in the middle", () => {
    const png = decodePng(renderInitialsPng(ADA).body);
    const bg = avatarColour(ID).hex.slice(1);
    const counts = _histogram(png.pixels);
    expect(png.pixels[0]).toBe(bg);
    expect(counts.get(bg)).toBeGreaterThan(128 * 128 * 0.5);
    expect(counts.get("ffffff")).toBeGreaterThan(400);
    expect(counts.size).toBeGreaterThan(2); // anti-aliased edges
  });

  it("centres the ink", () => {
    const png = decodePng(renderInitialsPng(ADA).body);
    const box = _inkBox(png.pixels, 128);
    expect(Math.abs(box.left + box.right - 127)).toBeLessThanOrEqual(2);
    expect(Math.abs(box.top + box.bottom - 127)).toBeLessThanOrEqual(2);
    expect(box.right - box.left).toBeGreaterThan(box.bottom - box.top); // two letters: wider than tall
  });

  it.each([
    { name: "different initials", other: { ...ADA, data: { first_name: "Mary", last_name: "Wollstonecraft" } } },
    { name: "one initial", other: { ...ADA, data: { first_name: "Ada" } } },
  ])("draws $name differently", ({ other }) => {
    const a = decodePng(renderInitialsPng(ADA).body).pixels;
    const b = decodePng(renderInitialsPng(other).body).pixels;
    expect(a).not.toEqual(b);
  });

  it.each([
    { name: "accented initial, drawn unaccented", data: { first_name: "Émile" }, same: { first_name: "Emile" } },
    { name: "initial the font lacks, drawn as ?", data: { first_name: "Дмитрий" }, same: {} },
  ])("$name", ({ data, same }) => {
    const a = renderInitialsPng({ id: ID, data }).body;
    const b = renderInitialsPng({ id: ID, data: same }).body;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it.each([0, 15, 513, 64.5, Number.NaN])("refuses size %s", (size) => {
    expect(() => renderInitialsPng(ADA, size)).toThrow(RangeError);
  });
});

describe("renderInitialsSvg", () => {
  it("is a well-formed SVG of the size with the initials on the id's colour", () => {
    const image = renderInitialsSvg(ADA, 96);
    const svg = new TextDecoder().decode(image.body);
    expect(image.contentType).toBe("image/svg+xml");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="96" height="96" viewBox="0 0 96 96"/);
    expect(svg).toContain(`fill="${avatarColour(ID).hex}"`);
    expect(svg).toContain(">AL</text>");
    expect(_wellFormed(svg)).toBe(true);
  });

  it("escapes the label and drops control characters", () => {
    const svg = new TextDecoder().decode(
      renderInitialsSvg({ id: ID, data: { first_name: "<b>" }, displayValue: `A & "B" <c>\u0001` }).body,
    );
    expect(svg).toContain('aria-label="A &#38; &#34;B&#34; &#60;c&#62;"');
    expect(svg).toContain(">B</text>");
    expect(_wellFormed(svg)).toBe(true);
  });

  it("refuses a size out of range", () => {
    expect(() => renderInitialsSvg(ADA, 4096)).toThrow(RangeError);
  });
});

describe("renderInitialsAvatar and parseAvatarQuery", () => {
  it.each([
    { query: {}, expected: { ok: true, format: "png", size: 128 } },
    { query: { format: "svg" }, expected: { ok: true, format: "svg", size: 128 } },
    { query: { format: "PNG", size: "64" }, expected: { ok: true, format: "png", size: 64 } },
    { query: { size: "" }, expected: { ok: true, format: "png", size: 128 } },
    { query: { size: "16" }, expected: { ok: true, format: "png", size: 16 } },
    { query: { size: "512" }, expected: { ok: true, format: "png", size: 512 } },
    { query: { format: "gif" }, expected: { ok: false, reason: expect.stringContaining("png, svg") } },
    { query: { size: "15" }, expected: { ok: false, reason: expect.stringContaining("16 to 512") } },
    { query: { size: "513" }, expected: { ok: false, reason: expect.stringContaining("size") } },
    { query: { size: "1e2" }, expected: { ok: false, reason: expect.stringContaining("size") } },
    { query: { size: "-64" }, expected: { ok: false, reason: expect.stringContaining("size") } },
  ])("parseAvatarQuery($query)", ({ query, expected }) => {
    expect(parseAvatarQuery(query)).toEqual(expected);
  });

  it.each([
    { format: undefined, contentType: "image/png" },
    { format: "png" as const, contentType: "image/png" },
    { format: "svg" as const, contentType: "image/svg+xml" },
  ])("renders format $format as $contentType", ({ format, contentType }) => {
    expect(renderInitialsAvatar(ADA, format).contentType).toBe(contentType);
  });
});

describe("the bitmap font", () => {
  it("has A-Z, 0-9 and ? as 5×7 glyphs, all different", () => {
    const expected = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?"];
    expect(Object.keys(GLYPHS).sort()).toEqual([...expected].sort());
    for (const ch of expected) {
      const rows = GLYPHS[ch]!;
      expect(rows, ch).toHaveLength(GLYPH_ROWS);
      for (const row of rows) expect(row, ch).toMatch(new RegExp(`^[.#]{${GLYPH_COLUMNS}}$`));
    }
    expect(new Set(expected.map((ch) => GLYPHS[ch]!.join("/"))).size).toBe(expected.length);
  });
});

// --- helpers ---

function _contrastWithWhite(r: number, g: number, b: number): number {
  const lin = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 1.05 / (0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) + 0.05);
}

function _histogram(pixels: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pixels) counts.set(p, (counts.get(p) ?? 0) + 1);
  return counts;
}

function _inkBox(pixels: string[], size: number) {
  const box = { left: size, right: -1, top: size, bottom: -1 };
  pixels.forEach((p, i) => {
    if (p !== "ffffff") return;
    const x = i % size;
    const y = Math.floor(i / size);
    box.left = Math.min(box.left, x);
    box.right = Math.max(box.right, x);
    box.top = Math.min(box.top, y);
    box.bottom = Math.max(box.bottom, y);
  });
  return box;
}

/** Tags balance, text holds no raw `<`, every `&` starts an entity, no control characters. */
function _wellFormed(xml: string): boolean {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml)) return false;
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    const text = xml.slice(at, lt === -1 ? xml.length : lt);
    if (/&(?!#\d+;|[a-z]+;)/.test(text)) return false;
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) return false;
    const [, close, name, attrs, selfClose] = m;
    if (/&(?!#\d+;|[a-z]+;)/.test(attrs!)) return false;
    if (close) {
      if (stack.pop() !== name) return false;
    } else if (!selfClose) stack.push(name!);
    at = tag.lastIndex;
  }
  return stack.length === 0;
}
