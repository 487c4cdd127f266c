/**
 * @module derived/card
 * The signed member card: an HTML page naming the member (the person that the member
 * record's `member` field references), the membership's number, type, dates and status,
 * and the flock's name. Rendered with Eta from `CARD_TEMPLATE`; every value is escaped.
 */
import { Eta } from "eta";
import { CARD_TEMPLATE } from "./card-template.js";

/** The person named on the card (its data fields), or null when the reference is broken. */
export type CardPerson = { formatted_name?: unknown; first_name?: unknown; last_name?: unknown } & Record<string, unknown>;

/** What the card shows. `today` (`YYYY-MM-DD`) lets the card derive a status from the dates. */
export interface CardInput {
  flockName: string;
  person: CardPerson | null;
  /** The member (or membership) record's data fields. */
  membership: Record<string, unknown>;
  today?: string;
}

/** Shown for a field the membership does not hold. */
export const CARD_EMPTY_VALUE = "—";

/**
 * Most characters (code points) of one text a card shows: its name, its flock's name, each
 * value. Far more than the widest line holds in the narrowest glyphs (the PDF's name line
 * fits about 85), so a text is cut to this before anything measures, escapes or draws it,
 * and no stored text, however long, makes a card slow. A cut text ends in "…".
 */
export const CARD_TEXT_MAX_CHARS = 300;

/**
 * The card page as a complete HTML document.
 *
 * @example
 * renderCard({ flockName: "Demo Society", person: { formatted_name: "Ada Lovelace" },
 *   membership: { membership_number: "M-1", start_date: "2026-01-01" } })
 */
export function renderCard(input: CardInput): string {
  return _eta.render(_compiled, cardView(input));
}

/** One line of the card: a label and its value (`tone` colours a status). */
interface CardRow {
  label: string;
  value: string;
  datetime?: string;
  tone?: string;
}

/** What every rendering of the card (HTML, PDF) shows. */
export interface CardView {
  name: string;
  flockName: string;
  rows: CardRow[];
}

/**
 * The card's content, whatever it is rendered as: the member's name, the flock's name and
 * the membership rows (number, type, dates, status).
 *
 * @example
 * cardView({ flockName: "Demo", person: { formatted_name: "Ada" }, membership: {} }).rows[0] // { label: "Membership number", value: "—" }
 */
export function cardView(input: CardInput): CardView {
  const m = input.membership;
  const status = cardStatus(m, input.today);
  const rows: CardRow[] = [
    { label: "Membership number", value: _display(m["membership_number"]) },
    { label: "Type", value: _display(m["membership_type"]) },
    _dateRow("Start date", m["start_date"]),
    _dateRow("End date", m["end_date"]),
    status
      ? { label: "Status", value: status, tone: TONES[status.toLowerCase()] ?? "neutral" }
      : { label: "Status", value: CARD_EMPTY_VALUE },
  ];
  return {
    name: cardText(cardName(input.person)),
    flockName: cardText(input.flockName),
    rows: rows.map((row) => ({ ...row, value: cardText(row.value) })),
  };
}

/**
 * `text` cut to `CARD_TEXT_MAX_CHARS` code points, ending in "…" when cut. Reads at most
 * that many characters of `text`, whatever its length.
 *
 * @example
 * cardText("x".repeat(10_000)).length // 300
 */
export function cardText(text: string): string {
  // Code points are at most two code units: a text this short has few enough.
  if (text.length <= CARD_TEXT_MAX_CHARS) return text;
  let end = 0;
  let keep = 0;
  for (let n = 0; n < CARD_TEXT_MAX_CHARS && end < text.length; n++) {
    if (n === CARD_TEXT_MAX_CHARS - 1) keep = end;
    end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  }
  return end >= text.length ? text : `${text.slice(0, keep)}…`;
}

/** The name the card shows for `person`: formatted name, else first and last name. */
export function cardName(person: CardPerson | null): string {
  if (!person) return UNKNOWN_MEMBER;
  const formatted = _text(person.formatted_name);
  if (formatted) return formatted;
  const parts = [_text(person.first_name), _text(person.last_name)].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : UNKNOWN_MEMBER;
}

/**
 * The membership status shown: `membership_record_status` when set, otherwise derived from
 * the dates when `today` is known (`pending` before the start, `expired` after the end,
 * `active` between), otherwise undefined.
 */
export function cardStatus(membership: Record<string, unknown>, today?: string): string | undefined {
  const stored = _text(membership["membership_record_status"]);
  if (stored) return stored;
  if (!today) return undefined;
  const start = _isoDate(membership["start_date"]);
  const end = _isoDate(membership["end_date"]);
  if (start && today < start) return "pending";
  if (end && today > end) return "expired";
  return start || end ? "active" : undefined;
}

// --- internal ---

const UNKNOWN_MEMBER = "Unknown member";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const TONES: Record<string, "active" | "ended" | "pending"> = {
  active: "active",
  current: "active",
  live: "active",
  renewed: "active",
  expired: "ended",
  lapsed: "ended",
  cancelled: "ended",
  ended: "ended",
  pending: "pending",
  future: "pending",
};

const _eta = new Eta({ autoEscape: true, autoTrim: [false, "nl"], cache: false });
const _compiled = _eta.compile(CARD_TEMPLATE);

function _dateRow(label: string, value: unknown): CardRow {
  const iso = _isoDate(value);
  if (!iso) return { label, value: _display(value) };
  const [y, mo, d] = iso.split("-").map(Number);
  return { label, value: `${d} ${MONTHS[mo! - 1]} ${y}`, datetime: iso };
}

/** `YYYY-MM-DD` of a date or timestamp value, if it is one. */
function _isoDate(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]|$)/.exec(value);
  if (!m) return undefined;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function _display(value: unknown): string {
  if (value === null || value === undefined) return CARD_EMPTY_VALUE;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(String).join(", ") || CARD_EMPTY_VALUE;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).trim() || CARD_EMPTY_VALUE;
}

function _text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}
