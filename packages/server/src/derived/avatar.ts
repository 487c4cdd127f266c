/**
 * @module derived/avatar
 * The avatar drawn when a record has no uploaded photo: its initials in white on a solid
 * colour derived from the record id. Two renderings, neither needing a browser or a native
 * graphics toolkit: SVG (text, scales freely) and PNG (rasterised here from a bitmap font,
 * anti-aliased by supersampling, encoded by derived/png.ts). PNG is the default format.
 */
import { GLYPH_COLUMNS, GLYPH_ROWS, glyphFor } from "./avatar-font.js";
import { encodePngRgb } from "./png.js";

/** What an avatar is drawn from: a stored record fits (`id`, `data`, `displayValue`). */
export interface AvatarSubject {
  id: string;
  data: Record<string, unknown>;
  displayValue?: string;
}

/** A rendered image, ready to send. */
export interface AvatarImage {
  contentType: "image/png" | "image/svg+xml";
  body: Uint8Array;
}

export type AvatarFormat = "png" | "svg";

/** An sRGB colour. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
  /** `#rrggbb`. */
  hex: string;
}

export const AVATAR_DEFAULT_SIZE = 128;
export const AVATAR_MIN_SIZE = 16;
export const AVATAR_MAX_SIZE = 512;
const AVATAR_DEFAULT_FORMAT: AvatarFormat = "png";

/**
 * The initials shown: first letters of `first_name` and `last_name`; else of the first and
 * last words of `formatted_name`, `name` or the display value (not the "an empty …"
 * placeholder); else `?`. Upper-cased, at most two.
 *
 * @example
 * avatarInitials({ id, data: { first_name: "ada", last_name: "Lovelace" } }) // "AL"
 */
export function avatarInitials(subject: AvatarSubject): string {
  const { data } = subject;
  const fromParts = _initial(data["first_name"]) + _initial(data["last_name"]);
  if (fromParts) return fromParts;
  const display = subject.displayValue && !PLACEHOLDER_RE.test(subject.displayValue) ? subject.displayValue : undefined;
  for (const text of [data["formatted_name"], data["name"], display]) {
    if (typeof text !== "string") continue;
    const words = text.split(/\s+/).filter((w) => _initial(w));
    if (words.length === 0) continue;
    return _initial(words[0]) + (words.length > 1 ? _initial(words[words.length - 1]) : "");
  }
  return "?";
}

/**
 * The background colour of a record's avatar: a hue hashed from the id (FNV-1a), at a
 * lightness low enough that white text keeps a WCAG contrast ratio of at least 4.5.
 */
export function avatarColour(id: string): Rgb {
  const hue = _fnv1a(id) % 360;
  let lightness = 0.45;
  let rgb = _hslToRgb(hue, 0.6, lightness);
  while (_contrastWithWhite(rgb) < MIN_CONTRAST && lightness > 0.05) {
    lightness -= 0.01;
    rgb = _hslToRgb(hue, 0.6, lightness);
  }
  return rgb;
}

/**
 * Parses the avatar query (`?format=png|svg&size=N`); defaults PNG, 128.
 * Returns the reason to put in a 400 when a value is not accepted.
 */
export function parseAvatarQuery(query: { format?: string | undefined; size?: string | undefined }):
  | { ok: true; format: AvatarFormat; size: number }
  | { ok: false; reason: string } {
  const format = (query.format ?? AVATAR_DEFAULT_FORMAT).toLowerCase();
  if (format !== "png" && format !== "svg") {
    return { ok: false, reason: `format: '${query.format}' is not one of png, svg` };
  }
  if (query.size === undefined || query.size === "") return { ok: true, format, size: AVATAR_DEFAULT_SIZE };
  const size = /^\d{1,4}$/.test(query.size) ? Number(query.size) : NaN;
  if (!(size >= AVATAR_MIN_SIZE && size <= AVATAR_MAX_SIZE)) {
    return { ok: false, reason: `size: '${query.size}' is not an integer from ${AVATAR_MIN_SIZE} to ${AVATAR_MAX_SIZE}` };
  }
  return { ok: true, format, size };
}

/** The initials avatar as SVG (`image/svg+xml`), `size` pixels square. */
export function renderInitialsSvg(subject: AvatarSubject, size: number = AVATAR_DEFAULT_SIZE): AvatarImage {
  _checkSize(size);
  const initials = avatarInitials(subject);
  const { hex } = avatarColour(subject.id);
  const label = _xml(subject.displayValue ?? initials);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img" aria-label="${label}">` +
    `<rect width="${size}" height="${size}" fill="${hex}"/>` +
    `<text x="50%" y="50%" dy="0.35em" text-anchor="middle" fill="#ffffff" font-size="${Math.round(size * 0.42)}" ` +
    `font-weight="600" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif">` +
    `${_xml(initials)}</text></svg>`;
  return { contentType: "image/svg+xml", body: new TextEncoder().encode(svg) };
}

/** The initials avatar as PNG (`image/png`), `size` pixels square, drawn with the bitmap font. */
export function renderInitialsPng(subject: AvatarSubject, size: number = AVATAR_DEFAULT_SIZE): AvatarImage {
  _checkSize(size);
  const text = [...avatarInitials(subject)].map(_fold).join("");
  const rgb = _rasterise(text, size, avatarColour(subject.id));
  return { contentType: "image/png", body: encodePngRgb(size, size, rgb) };
}

/** Renders the initials avatar in the requested format. */
export function renderInitialsAvatar(subject: AvatarSubject, format: AvatarFormat = AVATAR_DEFAULT_FORMAT, size = AVATAR_DEFAULT_SIZE): AvatarImage {
  return format === "svg" ? renderInitialsSvg(subject, size) : renderInitialsPng(subject, size);
}

// --- internal ---

const MIN_CONTRAST = 4.5;
const PLACEHOLDER_RE = /^an? empty\b/i;
/** Subsamples per pixel along each axis (4×4 = 16 coverage levels). */
const SUPERSAMPLE = 4;

function _checkSize(size: number): void {
  if (!Number.isInteger(size) || size < AVATAR_MIN_SIZE || size > AVATAR_MAX_SIZE) {
    throw new RangeError(`avatar size must be an integer from ${AVATAR_MIN_SIZE} to ${AVATAR_MAX_SIZE}, got ${size}`);
  }
}

/** First letter or digit of a text value, upper-cased; "" when there is none. */
function _initial(value: unknown): string {
  if (typeof value !== "string") return "";
  const m = /[\p{L}\p{N}]/u.exec(value);
  return m ? [...m[0].toUpperCase()][0]! : "";
}

/** Maps a character to one the bitmap font has: accents dropped (É → E), else `?`. */
function _fold(ch: string): string {
  const base = ch.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase();
  return /^[A-Z0-9]$/.test(base) ? base : "?";
}

/**
 * Draws `text` centred in white on `bg`. Each glyph cell is a square of `cell` pixels;
 * a pixel's ink is the share of its SUPERSAMPLE² sample points that fall on a lit cell.
 */
function _rasterise(text: string, size: number, bg: Rgb): Uint8Array {
  const glyphs = [...text].map(glyphFor);
  const cols = glyphs.length * (GLYPH_COLUMNS + 1) - 1; // one blank column between glyphs
  const cell = Math.min((size * 0.38) / GLYPH_ROWS, (size * 0.62) / cols);
  const x0 = (size - cols * cell) / 2;
  const y0 = (size - GLYPH_ROWS * cell) / 2;
  const lit = (sx: number, sy: number): boolean => {
    const cx = Math.floor((sx - x0) / cell);
    const cy = Math.floor((sy - y0) / cell);
    if (cx < 0 || cy < 0 || cx >= cols || cy >= GLYPH_ROWS) return false;
    const column = cx % (GLYPH_COLUMNS + 1);
    if (column === GLYPH_COLUMNS) return false;
    return glyphs[Math.floor(cx / (GLYPH_COLUMNS + 1))]![cy]![column] === "#";
  };
  const out = new Uint8Array(size * size * 3);
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let j = 0; j < SUPERSAMPLE; j++) {
        for (let i = 0; i < SUPERSAMPLE; i++) {
          if (lit(px + (i + 0.5) / SUPERSAMPLE, py + (j + 0.5) / SUPERSAMPLE)) hits++;
        }
      }
      const a = hits / samples;
      const at = (py * size + px) * 3;
      out[at] = Math.round(bg.r + (255 - bg.r) * a);
      out[at + 1] = Math.round(bg.g + (255 - bg.g) * a);
      out[at + 2] = Math.round(bg.b + (255 - bg.b) * a);
    }
  }
  return out;
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function _fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function _hslToRgb(hue: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = hue / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r1, g1, b1] =
    hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  const [r, g, b] = [r1, g1, b1].map((v) => Math.round((v + m) * 255)) as [number, number, number];
  const hex = "#" + [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return { r, g, b, hex };
}

/** WCAG 2 contrast ratio of white against `rgb`. */
function _contrastWithWhite({ r, g, b }: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return 1.05 / (luminance + 0.05);
}

/** Escapes markup and drops the control characters XML 1.0 forbids. */
function _xml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
