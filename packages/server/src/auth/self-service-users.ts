/**
 * @module auth/self-service-users
 * Members' own accounts (contract, "Self-service users"): created by a core key for one
 * flock, with the member's email address as username and role `self-service`, in that
 * flock's own account namespace. Their logins are sessions of 24 hours.
 */
import { badRequest, conflict, formatTimestamp, type AccountStore, type Clock } from "@records-service/core";
import { defaultPasswordHasher, type PasswordHasher } from "./passwords.js";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, memberAccountKey, MIN_PASSWORD_LENGTH, normalizeUsername } from "./usernames.js";

/** How long a self-service session lasts: 24 hours from login. */
export const SELF_SERVICE_SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * Checks and normalises a member's email address: one `@`, a dot in the domain, no spaces
 * or control characters, at most 254 characters. Returns the trimmed address; throws 400.
 *
 * @example
 * checkEmail(" Ada@Example.org ") // "Ada@Example.org"
 */
function checkEmail(raw: unknown): string {
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
 * Creates flock `flock`'s member account for `email` (stored as `"{flock} {email}"`, see
 * auth/usernames): 409 `existing user account found` only when this flock already has a
 * member account for that email. Accounts elsewhere (other flocks' members, staff,
 * administrators) are different accounts: they neither block this one nor show through
 * it. 400 for a bad email or a password shorter than 8 characters.
 *
 * @example
 * await createSelfServiceUser(storage, clock, "demo", "ada@example.org", "a long password")
 * // { email: "ada@example.org", username: "ada@example.org" }
 */
export async function createSelfServiceUser(
  storage: AccountStore,
  clock: Clock,
  flock: string,
  rawEmail: unknown,
  password: unknown,
  passwords: PasswordHasher = defaultPasswordHasher(),
): Promise<{ email: string; username: string }> {
  const email = checkEmail(rawEmail);
  if (typeof password !== "string" || password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(
      "invalid password",
      `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (the minimum password length is ${MIN_PASSWORD_LENGTH})`,
    );
  }
  const username = normalizeUsername(email);
  const key = memberAccountKey(flock, username);
  const exists = async () => {
    if (await storage.getUser(key)) {
      throw conflict("existing user account found", `flock ${JSON.stringify(flock)} already has a member account for ${JSON.stringify(username)}`);
    }
  };
  // Checked before hashing (a refused request costs no hash) and again after (no slow step
  // between the last check and the write).
  await exists();
  const passwordHash = await passwords.hash(password);
  await exists();
  await storage.putUser({ username: key, passwordHash, flocks: [flock], role: "self-service", created: formatTimestamp(clock.now()) });
  return { email, username };
}

// --- internal ---

const EMAIL_RE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;
