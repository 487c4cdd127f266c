/**
 * @module gateway/giving/tax-year
 * The tax year of a giving statement (spec v2-gateway section 8, our choice): from
 * `{startyear}-{MM-DD}` to the day before `{endyear}-{MM-DD}`, inclusive, where `MM-DD` is the
 * flock's `invoicing` entry's `tax_year_start`, else config/schema's default (`04-06`, the
 * UK's 6 April). The years
 * are four digits and consecutive; anything else is a 400.
 */
import { badRequest } from "@records-service/core";

/** A tax year's first and last day, `YYYY-MM-DD`, both inclusive. */
export interface TaxYear {
  startYear: number;
  endYear: number;
  first: string;
  last: string;
}

/**
 * The tax year `startyear`/`endyear` starting on `start` (`MM-DD`).
 *
 * @example
 * taxYear("2025", "2026", "04-06") // { startYear: 2025, endYear: 2026, first: "2025-04-06", last: "2026-04-05" }
 * taxYear("2025", "2027", "04-06") // 400 "bad tax year"
 */
export function taxYear(startyear: string, endyear: string, start: string): TaxYear {
  const a = _year("startyear", startyear);
  const b = _year("endyear", endyear);
  if (b !== a + 1) throw badRequest("bad tax year", `endyear must be startyear + 1 (a tax year spans two consecutive years): ${a} is followed by ${a + 1}, not ${b}`);
  const first = `${a}-${start}`;
  const next = new Date(`${b}-${start}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() - 1);
  return { startYear: a, endYear: b, first, last: next.toISOString().slice(0, 10) };
}

/**
 * True when `mmdd` is a month and day every year has (`02-29` is refused).
 *
 * @example
 * isTaxYearStart("04-06") // true
 */
export function isTaxYearStart(mmdd: string): boolean {
  const m = /^(\d{2})-(\d{2})$/.exec(mmdd);
  if (!m) return false;
  const date = new Date(`2001-${mmdd}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(5, 10) === mmdd;
}

// --- internal ---

function _year(name: string, raw: string): number {
  if (!/^\d{4}$/.test(raw)) throw badRequest("bad tax year", `${name} ${JSON.stringify(raw.slice(0, 20))} is not a four-digit year`);
  return Number(raw);
}
