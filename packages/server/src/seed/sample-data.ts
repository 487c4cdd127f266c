/**
 * @module seed/sample-data
 * Realistic sample records for trying the service out: people with contact details and
 * addresses, their memberships, bookings and payments. Pure and deterministic: the same
 * seed and day give the same records (a small PRNG, no data library at run time).
 */

/** One sample person and what hangs off them; references are filled in when written. */
export interface SamplePerson {
  person: Record<string, unknown>;
  membership?: Record<string, unknown>;
  /** Payments for the membership (its `membership_ref` is set when written). */
  payments: Record<string, unknown>[];
  bookings: Record<string, unknown>[];
}

/**
 * `count` sample people, as of `today` (`YYYY-MM-DD`), from `seed`.
 *
 * @example
 * samplePeople(3, 1, "2026-11-28")[0].person.first_name // e.g. "Amara"
 */
export function samplePeople(count: number, seed: number, today: string): SamplePerson[] {
  const rnd = _mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const base = Date.parse(`${today}T00:00:00Z`);
  const day = (offset: number) => new Date(base + offset * 86_400_000).toISOString().slice(0, 10);
  const out: SamplePerson[] = [];
  for (let i = 0; i < count; i++) {
    const first = pick(_FIRST);
    const last = pick(_LAST);
    const town = pick(_TOWNS);
    const handle = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
    const person: Record<string, unknown> = {
      title: pick(["Ms", "Mr", "Mx", "Dr", null, null]),
      first_name: first,
      last_name: last,
      email: [`${handle}${i > 0 && rnd() < 0.3 ? i : ""}@${pick(_MAIL_HOSTS)}`],
      telephone: [`07${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}`],
      address_lines: [`${1 + Math.floor(rnd() * 180)} ${pick(_STREETS)}`],
      locality: town[0],
      postal_code: `${town[1]}${1 + Math.floor(rnd() * 20)} ${1 + Math.floor(rnd() * 9)}${pick(_LETTERS)}${pick(_LETTERS)}`,
      country: "United Kingdom",
      date_of_birth: day(-Math.floor(18 * 365 + rnd() * 60 * 365)),
      tags: _some(rnd, _TAGS),
      email_opt_out: rnd() < 0.15,
    };
    const sample: SamplePerson = { person, payments: [], bookings: [] };
    // Most people are members: some current, some lapsed, a few due to renew within weeks.
    if (rnd() < 0.75) {
      const plan = pick(_PLANS);
      const started = -Math.floor(rnd() * 3 * 365);
      const end = started + 365 * (1 + Math.floor(rnd() * 2));
      sample.membership = {
        membership_type: plan[0],
        membership_number: `M${String(10_000 + i).padStart(6, "0")}`,
        membership_record_status: end < 0 ? "lapsed" : "active",
        start_date: day(started),
        end_date: day(end),
        auto_renew: rnd() < 0.6,
      };
      person.member_since = day(started);
      sample.payments.push({ amount: plan[1], currency: "GBP", payment_date: day(started), method: pick(["card", "direct debit", "bank transfer", "cash"]), reference: `PAY-${seed}-${i}` });
    }
    for (let b = Math.floor(rnd() * 3); b > 0; b--) {
      sample.bookings.push({ title: pick(_EVENTS), start_date: day(Math.floor(rnd() * 120) - 60), places: 1 + Math.floor(rnd() * 3), status: pick(["confirmed", "confirmed", "waiting list", "cancelled"]) });
    }
    out.push(sample);
  }
  return out;
}

// --- internal ---

/** A small, well-known 32-bit PRNG: the same seed gives the same sequence everywhere. */
function _mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function _some(rnd: () => number, xs: readonly string[]): string[] {
  return xs.filter(() => rnd() < 0.2);
}

const _FIRST = ["Amara", "Ben", "Chloe", "Dev", "Elif", "Finn", "Grace", "Hamza", "Isla", "Jonah", "Kemi", "Leo", "Maya", "Niamh", "Oscar", "Priya", "Quentin", "Rosa", "Samir", "Tess", "Umar", "Vera", "Wen", "Yusuf", "Zoe"];
const _LAST = ["Ahmed", "Baker", "Campbell", "Davies", "Evans", "Fraser", "Green", "Hughes", "Iqbal", "Jones", "Khan", "Lloyd", "Murphy", "Nowak", "O'Brien", "Patel", "Quinn", "Roberts", "Singh", "Taylor", "Usman", "Walsh", "Young", "Zhang"];
const _TOWNS: readonly (readonly [string, string])[] = [["Bristol", "BS"], ["Leeds", "LS"], ["Norwich", "NR"], ["Cardiff", "CF"], ["York", "YO"], ["Exeter", "EX"], ["Glasgow", "G"], ["Brighton", "BN"]];
const _STREETS = ["High Street", "Station Road", "Church Lane", "Mill Road", "Park Avenue", "Victoria Street", "Orchard Close", "Queens Road"];
const _MAIL_HOSTS = ["example.org", "example.com", "example.net"];
const _LETTERS = "ABDEFGHJLNPQRSTUWXYZ".split("");
const _TAGS = ["volunteer", "donor", "newsletter", "committee", "vip"];
const _PLANS: readonly (readonly [string, number])[] = [["Standard", 45], ["Family", 70], ["Student", 20], ["Concession", 25], ["Life", 600]];
const _EVENTS = ["Spring walk", "Annual general meeting", "Summer fair", "Garden tour", "Winter lecture", "Volunteer training"];
