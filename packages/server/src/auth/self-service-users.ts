/**
 * @module auth/self-service-users
 * Members' own accounts (contract, "Self-service users"): created by a core key for one
 * flock, with the member's email address as username and role `self-service`. Their logins
 * are sessions that expire, unlike core API keys.
 */
import { badRequest, conflict, formatTimestamp, type Clock, type Storage } from "@records-service/core";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, normalizeUsername } from "./accounts.js";
import { hashPassword } from "./passwords.js";

/** How long a self-service session lasts: 24 hours from login. */
export const SELF_SERVICE_SESSION_MS = 24 * 60 * 60 * 1000;
/** Shortest password accepted for a member account created through the API. */
export const SELF_SERVICE_MIN_PASSWORD_LENGTH = 8;

/**
 * Checks and normalises a member's email address: one `@`, a dot in the domain, no spaces
 * or control characters, at most 254 characters. Returns the trimmed address; throws 400.
 *
 * @example
 * checkEmail(" Ada@Example.org ") // "Ada@Example.org"
 */
export function checkEmail(raw: unknown): string {
  const email = typeof raw === "string" ? raw.trim() : "";
  if (email.length === 0 || email.length > MAX_USERNAME_LENGTH || !EMAIL_RE.test(email)) {
    throw badRequest(
      "invalid email",
      `email must be an email address such as ada@example.org (at most ${MAX_USERNAME_LENGTH} characters)` +
        (typeof raw === "string" ? `, not ${JSON.stringify(raw.slice(0, 80))}` : ""),
    );
  }
  return email;
}

/**
 * Creates the self-service user of `email` in `flock`. 409 `existing user account found`
 * when any user (of any flock or role) already has that username; 400 for a bad email or
 * a password shorter than 8 characters.
 *
 * @example
 * await createSelfServiceUser(storage, clock, "demo", "ada@example.org", "a long password")
 * // { email: "ada@example.org", username: "ada@example.org" }
 */
export async function createSelfServiceUser(
  storage: Storage,
  clock: Clock,
  flock: string,
  rawEmail: unknown,
  password: unknown,
): Promise<{ email: string; username: string }> {
  const email = checkEmail(rawEmail);
  if (typeof password !== "string" || password.length < SELF_SERVICE_MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(
      "invalid password",
      `password must be a string of ${SELF_SERVICE_MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
  const username = normalizeUsername(email);
  // Hash first, so no slow step sits between the existence check and the write.
  const passwordHash = await hashPassword(password);
  if (await storage.getUser(username)) {
    throw conflict("existing user account found", `a user account with the username ${JSON.stringify(username)} already exists`);
  }
  await storage.putUser({
    username,
    passwordHash,
    flocks: [flock],
    role: "self-service",
    created: formatTimestamp(clock.now()),
  });
  return { email, username };
}

// --- internal ---

const EMAIL_RE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;
