/**
 * @module seed/seed-flock
 * Writes sample people (seed/sample-data) into a flock through the engine's normal creates,
 * so the audit, change feed and data events see them as any other write: each person, then
 * their membership (`member` references the person), its payment and their bookings.
 */
import { formatDate, recordUri, type RecordEngine } from "@records-service/core";
import { samplePeople } from "./sample-data.js";

/** What a seed run created, by type. */
export interface SeedReport {
  person: number;
  membership: number;
  payment: number;
  booking: number;
}

/**
 * Creates `persons` sample people and their records in `flock` (which must exist: 404).
 *
 * @example
 * await seedFlock(engine, "demo", { persons: 50, seed: 1 }) // { person: 50, membership: 37, ... }
 */
export async function seedFlock(engine: RecordEngine, flock: string, opts: { persons: number; seed: number }): Promise<SeedReport> {
  const report: SeedReport = { person: 0, membership: 0, payment: 0, booking: 0 };
  const today = formatDate(engine.context.clock.now());
  for (const sample of samplePeople(opts.persons, opts.seed, today)) {
    const person = await engine.create(flock, "person", sample.person);
    report.person++;
    const personUri = recordUri(flock, "person", person.id);
    if (sample.membership) {
      const membership = await engine.create(flock, "membership", { ...sample.membership, member: personUri });
      report.membership++;
      for (const payment of sample.payments) {
        await engine.create(flock, "payment", { ...payment, membership_ref: recordUri(flock, "membership", membership.id) });
        report.payment++;
      }
    }
    for (const booking of sample.bookings) {
      await engine.create(flock, "booking", { ...booking, person_ref: personUri });
      report.booking++;
    }
  }
  return report;
}
