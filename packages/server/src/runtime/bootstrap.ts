/**
 * @module runtime/bootstrap
 * First start: a database with no flock and no admin gets flock `demo` and user `admin`
 * (every flock) with a random password, so a fresh `npm start` can be tried at once. The
 * password is returned once, for the operator to read; only its hash is stored.
 */
import { randomBytes } from "node:crypto";
import { formatTimestamp, type Clock, type Storage } from "@records-service/core";
import { createUser } from "../auth/accounts.js";
import { defaultPasswordHasher, type PasswordHasher } from "../auth/passwords.js";

export const DEMO_FLOCK = { identifier: "demo", name: "Demo" } as const;
const ADMIN_USERNAME = "admin";

/** The credentials created on first start. */
export interface FirstStartCredentials {
  flock: string;
  username: string;
  password: string;
}

/**
 * Creates the demo flock and the admin user when the database is empty (no flocks and no
 * `admin` user); otherwise does nothing and returns undefined.
 *
 * @example
 * const created = await seedIfEmpty(storage, systemClock); // { flock: "demo", username: "admin", password: "..." }
 */
export async function seedIfEmpty(
  storage: Storage,
  clock: Clock,
  passwords: PasswordHasher = defaultPasswordHasher(),
): Promise<FirstStartCredentials | undefined> {
  if ((await storage.listFlocks()).length > 0) return undefined;
  if (await storage.getUser(ADMIN_USERNAME)) return undefined;
  await storage.createFlock({ ...DEMO_FLOCK, created: formatTimestamp(clock.now()) });
  // 18 random bytes: 24 URL-safe characters, easy to copy from a terminal.
  const password = randomBytes(18).toString("base64url");
  await createUser(storage, clock, { username: ADMIN_USERNAME, password, flocks: ["*"], role: "core" }, passwords);
  return { flock: DEMO_FLOCK.identifier, username: ADMIN_USERNAME, password };
}
