/**
 * @module gateway/giving/gifts
 * A person's gifts in a tax year (spec v2-gateway section 8, our choice): the non-deleted
 * `payment` records with a `donation_ref` or `pledge_ref` whose payer is the person (the
 * payment's `person_ref`, else the donation's or pledge's), dated by `payment_date` inside
 * the year. Refunded and cancelled payments are not gifts (as they are not counted on an
 * invoice). Found through the reference index: the person's own payments, and the payments
 * of the person's donations and pledges; nothing is scanned.
 */
import type { StoredRecord } from "@records-service/core";
import { currencyOf, dateOf, money, numberOf } from "../events/packet.js";
import { recordsByUri } from "../events/read.js";
import { ticketCounts } from "../events/stock.js";
import { referencing, refOf, uriOf } from "../read-all.js";
import type { TaxYear } from "./tax-year.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** One gift as the statement shows it. */
export interface Gift {
  date: string;
  amount: number;
  currency: string;
  reference: string;
  /** The payment's URI. */
  uri: string;
}

/** The gift types a payment may reference. */
const GIFT_FIELDS = ["donation_ref", "pledge_ref"] as const;

/**
 * The person's gifts in the tax year, by date (then creation), and their totals per currency.
 *
 * @example
 * const { gifts, totals } = await giftsOf(engine, "demo", person, year, "gbp");
 */
export async function giftsOf(
  engine: RouteEngine,
  flock: string,
  person: StoredRecord,
  year: TaxYear,
  defaultCurrency: string,
): Promise<{ gifts: Gift[]; totals: { currency: string; amount: number }[] }> {
  const personUri = uriOf(person);
  const mine = await referencing(engine, flock, personUri);
  const found = new Map<string, { payment: StoredRecord; gift: StoredRecord | undefined }>();
  // The person's own payments against a gift.
  const giftsHeld = mine.filter((r) => (r.type === "donation" || r.type === "pledge") && refOf(r.data.person_ref) === personUri);
  const giftByUri = new Map(giftsHeld.map((g) => [uriOf(g), g]));
  for (const p of mine) {
    if (p.type !== "payment" || refOf(p.data.person_ref) !== personUri) continue;
    const giftUri = _giftUri(p);
    if (giftUri) found.set(p.id, { payment: p, gift: giftByUri.get(giftUri) });
  }
  // Payments of the person's donations and pledges that name no payer of their own.
  for (const gift of giftsHeld) {
    const giftUri = uriOf(gift);
    for (const p of await referencing(engine, flock, giftUri)) {
      if (p.type === "payment" && refOf(p.data.person_ref) === undefined && _giftUri(p) === giftUri) found.set(p.id, { payment: p, gift });
    }
  }
  // Another payer's donation paid by this person: read for its currency.
  const others = [...found.values()].filter((f) => f.gift === undefined).map((f) => _giftUri(f.payment)!);
  const read = others.length > 0 ? await recordsByUri(engine, flock, others) : new Map<string, StoredRecord>();
  for (const f of found.values()) f.gift ??= read.get(_giftUri(f.payment)!);
  const gifts: (Gift & { created: string })[] = [];
  for (const { payment, gift } of found.values()) {
    const date = dateOf(payment.data.payment_date);
    if (!ticketCounts(payment) || date === null || date < year.first || date > year.last) continue;
    const reference = payment.data.payment_reference;
    gifts.push({
      date,
      amount: money(numberOf(payment.data.amount) ?? 0),
      currency: currencyOf(payment.data.currency, currencyOf(gift?.data.currency, defaultCurrency)),
      reference: typeof reference === "string" ? reference : typeof reference === "number" ? String(reference) : "",
      uri: uriOf(payment),
      created: payment.created,
    });
  }
  gifts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.created < b.created ? -1 : a.created > b.created ? 1 : a.uri < b.uri ? -1 : 1));
  const sums = new Map<string, number>();
  for (const g of gifts) sums.set(g.currency, (sums.get(g.currency) ?? 0) + g.amount);
  const totals = [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ currency, amount: money(amount) }));
  return { gifts: gifts.map(({ created: _, ...g }) => g), totals };
}

// --- internal ---

/** The donation or pledge a payment is for, canonical; undefined when none. */
function _giftUri(p: StoredRecord): string | undefined {
  for (const field of GIFT_FIELDS) {
    const uri = refOf(p.data[field]);
    if (uri) return uri;
  }
  return undefined;
}
