/**
 * @module bench/lib/persons
 * Realistic, reproducible persons for the benchmarks: faker with a fixed seed, re-seeded
 * per batch, so batch `b` of seed `s` is always the same persons whichever store (ours or
 * the peer's) is being filled, and a batch can be regenerated without the ones before it.
 */
import { Faker, en, en_GB, base } from "@faker-js/faker";

/** Persons generated per faker re-seed. */
export const BATCH_SIZE = 1000;

/** The tags persons carry (a small vocabulary, as a real flock's tags are). */
export const TAGS: readonly string[] = [
  "volunteer", "donor", "member", "trustee", "staff", "newsletter", "alumni", "parent",
  "speaker", "sponsor", "mentor", "student", "press", "vip", "lapsed", "prospect",
];

/** The client fields of one generated person (what `POST /person` would send). */
export interface PersonInput {
  first_name: string;
  last_name: string;
  title: string | null;
  email: string[];
  telephone: string[];
  tags: string[] | null;
  locality: string;
  postal_code: string;
  country: string;
  date_of_birth: string | null;
  job_title: string | null;
  gender: string | null;
}

/**
 * The persons of batch `batch` (indexes `batch * BATCH_SIZE` up to `count`), always the same
 * for the same seed.
 *
 * @example
 * personBatch(42, 0, 10).length // 10
 */
export function personBatch(seed: number, batch: number, count: number): PersonInput[] {
  const faker = (_faker ??= new Faker({ locale: [en_GB, en, base] }));
  faker.seed(seed * 1_000_003 + batch);
  const out: PersonInput[] = [];
  for (let i = 0; i < count; i++) out.push(_person(faker));
  return out;
}

/** A random byte source for record ids, reproducible for `seed`. */
export function seededBytes(seed: number): (bytes: Uint8Array) => void {
  const faker = new Faker({ locale: [base] });
  faker.seed(seed);
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = faker.number.int(255);
  };
}

// --- internal ---

let _faker: Faker | undefined;

function _person(f: Faker): PersonInput {
  const sex = f.helpers.arrayElement(["female", "male"] as const);
  const first = f.person.firstName(sex);
  const last = f.person.lastName();
  const domain = f.internet.domainName();
  const email = [`${first}.${last}@${domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, "")];
  if (f.number.int(9) === 0) email.push(`${f.internet.username({ firstName: first, lastName: last })}@${f.internet.domainName()};work`.toLowerCase());
  const nTags = f.helpers.weightedArrayElement([
    { value: 0, weight: 3 },
    { value: 1, weight: 4 },
    { value: 2, weight: 2 },
    { value: 3, weight: 1 },
  ]);
  const tags = nTags === 0 ? null : f.helpers.arrayElements(TAGS, nTags);
  return {
    first_name: first,
    last_name: last,
    title: f.number.int(3) === 0 ? f.person.prefix(sex) : null,
    email,
    telephone: [`${f.phone.number({ style: "international" })};mobile`],
    tags,
    locality: f.location.city(),
    postal_code: f.location.zipCode(),
    country: "United Kingdom",
    date_of_birth: f.number.int(4) === 0 ? null : f.date.birthdate({ mode: "age", min: 5, max: 90 }).toISOString().slice(0, 10),
    job_title: f.number.int(2) === 0 ? f.person.jobTitle() : null,
    gender: sex,
  };
}
