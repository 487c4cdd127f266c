/**
 * @module auth/accounts
 * Users and logins. A user has a password (stored as a scrypt hash), a role and the flocks
 * it may open; `login` checks the password and issues an API key, storing only its hash.
 */
import { badRequest, formatTimestamp, type Clock, type Storage } from "@records-service/core";
import { checkCredentials, issueToken } from "./credentials.js";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, normalizeUsername } from "./usernames.js";

export { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, normalizeUsername } from "./usernames.js";
import { hashPassword, verifyPassword } from "./passwords.js";

/** The roles a user may have: staff (`core`) or member (`self-service`). */
export const ROLES = ["core", "self-service"] as const;
export type Role = (typeof ROLES)[number];

/** What `createUser` takes. `flocks: ["*"]` gives access to every flock. */
export interface NewUser {
  username: string;
  password: string;
  flocks: string[];
  role?: Role;
}

/**
 * Creates the user, or replaces the one with the same username (so applying a config file
 * twice changes nothing visible). Every named flock must exist. Throws a 400
 * `RecordsError` naming the bad value.
 *
 * @example
 * await createUser(storage, clock, { username: "ada@example.org", password: "pw", flocks: ["demo"] });
 */
export async function createUser(storage: Storage, clock: Clock, u: NewUser): Promise<void> {
  const username = _checkUsername(u.username);
  _checkPassword(u.password);
  const role = u.role ?? "core";
  if (!ROLES.includes(role)) {
    throw badRequest("invalid role", `role ${JSON.stringify(role)} is not one of ${ROLES.join(", ")}`);
  }
  const flocks = await _checkFlocks(storage, u.flocks);
  const existing = await storage.getUser(username);
  await storage.putUser({
    username,
    passwordHash: await _keepOrHash(existing?.passwordHash, u.password),
    flocks,
    role,
    created: existing?.created ?? formatTimestamp(clock.now()),
  });
}

/**
 * Checks the credentials and, when they match, issues a new API key (returned once; only
 * its hash is stored). Unknown usernames cost the same scrypt work as known ones, so the
 * answer time does not tell which usernames exist.
 *
 * @example
 * const key = await login(storage, clock, "ada@example.org", "pw"); // 64 hex chars, or undefined
 */
export async function login(storage: Storage, clock: Clock, username: string, password: string): Promise<string | undefined> {
  const { ok, user } = await checkCredentials(storage, username, password);
  if (!ok || !user) return undefined;
  return (await issueToken(storage, clock, user.username)).token;
}

// --- internal ---

/** Re-applying the same password keeps the stored hash, so a config reload leaves the row unchanged. */
async function _keepOrHash(existing: string | undefined, password: string): Promise<string> {
  if (existing && (await verifyPassword(password, existing))) return existing;
  return hashPassword(password);
}

function _checkUsername(raw: unknown): string {
  if (typeof raw !== "string") throw badRequest("invalid username", "username must be a string");
  const username = normalizeUsername(raw);
  if (username.length === 0 || username.length > MAX_USERNAME_LENGTH || /[\s\p{Cc}]/u.test(username)) {
    throw badRequest(
      "invalid username",
      `username ${JSON.stringify(raw.slice(0, 80))} must be 1 to ${MAX_USERNAME_LENGTH} characters without spaces or control characters`,
    );
  }
  return username;
}

function _checkPassword(password: unknown): void {
  if (typeof password !== "string" || password.length === 0 || password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest("invalid password", `password must be a string of 1 to ${MAX_PASSWORD_LENGTH} characters`);
  }
}

async function _checkFlocks(storage: Storage, flocks: unknown): Promise<string[]> {
  if (!Array.isArray(flocks) || flocks.length === 0 || !flocks.every((f) => typeof f === "string")) {
    throw badRequest("invalid flocks", 'flocks must be a non-empty list of flock identifiers (or ["*"] for every flock)');
  }
  const unique = [...new Set(flocks as string[])];
  for (const id of unique) {
    if (id !== "*" && !(await storage.getFlock(id))) {
      throw badRequest("unknown flock", `flock ${JSON.stringify(id)} does not exist; create it before giving a user access`);
    }
  }
  return unique;
}
