/**
 * @module auth/credentials
 * The two halves of a login, kept apart so the login routes can act between them (login
 * guard, data events): checking a username and password, and issuing a token. Unknown
 * usernames cost the same scrypt work as known ones, so timing does not reveal which exist.
 */
import { formatTimestamp, type Clock, type Storage, type UserRow } from "@records-service/core";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, normalizeUsername } from "./usernames.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { hashToken, newToken } from "./tokens.js";

/** The outcome of a credential check: `user` is set when the username exists, right password or not. */
export interface CredentialCheck {
  ok: boolean;
  user: UserRow | undefined;
}

/**
 * Checks a username and password.
 *
 * @example
 * const { ok, user } = await checkCredentials(storage, "ada@example.org", "pw");
 */
export async function checkCredentials(storage: Storage, username: string, password: string): Promise<CredentialCheck> {
  const user = username.length <= MAX_USERNAME_LENGTH ? await storage.getUser(normalizeUsername(username)) : undefined;
  const stored = user?.passwordHash ?? (await _dummyHash());
  const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(password, stored));
  return { ok: ok && user !== undefined, user };
}

/**
 * Issues a new token for `username`, stored only as its hash; `lifetimeMs` sets an expiry
 * (self-service sessions), none means the key does not expire (core API keys).
 *
 * @example
 * const { token, expires } = await issueToken(storage, clock, "ada@example.org", 86_400_000);
 */
export async function issueToken(
  storage: Storage,
  clock: Clock,
  username: string,
  lifetimeMs?: number,
): Promise<{ token: string; expires: string | null }> {
  const now = clock.now();
  const token = newToken();
  const expires = lifetimeMs === undefined ? null : formatTimestamp(new Date(now.getTime() + lifetimeMs));
  await storage.putApiKey({ tokenHash: hashToken(token), username, created: formatTimestamp(now), expires });
  return { token, expires };
}

// --- internal ---

let _dummy: Promise<string> | undefined;

/** A real hash of a random password, made once, to verify against for unknown usernames. */
function _dummyHash(): Promise<string> {
  _dummy ??= hashPassword(newToken());
  return _dummy;
}
