/**
 * @module auth/accounts
 * Users and logins. A user has a password (stored as a scrypt hash), a role and the flocks
 * it may open; `login` checks the password and issues an API key, storing only its hash.
 */
import { badRequest, formatTimestamp, type Clock, type Storage } from "@records-service/core";
import { hashPassword, verifyPassword } from "./passwords.js";
import { hashToken, newToken } from "./tokens.js";

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

/** Longest accepted username (an email address is at most 254 characters). */
export const MAX_USERNAME_LENGTH = 254;
/** Longest accepted password; longer ones only cost hashing time. */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Usernames are compared without case and surrounding spaces (they are usually email
 * addresses), so they are stored in that form.
 *
 * @example
 * normalizeUsername(" Ada@Example.org ") // "ada@example.org"
 */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
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
  const user = username.length <= MAX_USERNAME_LENGTH ? await storage.getUser(normalizeUsername(username)) : undefined;
  const stored = user?.passwordHash ?? (await _dummyHash());
  const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(password, stored));
  if (!user || !ok) return undefined;
  const token = newToken();
  await storage.putApiKey({ tokenHash: hashToken(token), username: user.username, created: formatTimestamp(clock.now()), expires: null });
  return token;
}

// --- internal ---

let _dummy: Promise<string> | undefined;

/** A real hash of a random password, made once, to verify against for unknown usernames. */
function _dummyHash(): Promise<string> {
  _dummy ??= hashPassword(newToken());
  return _dummy;
}

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
