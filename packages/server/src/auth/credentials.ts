/**
 * @module auth/credentials
 * The two halves of a login, kept apart so the login flow can act between them (login
 * guard, rehash, data events): checking an account's password, and issuing a token. Every
 * check costs one scrypt run at the current cost, whatever the input: an unknown account,
 * a disabled one or an overlong password is checked against a dummy hash, so neither
 * timing nor a cheap path tells anything or saves the attacker work.
 */
import { formatTimestamp, type Clock, type Storage, type UserRow } from "@records-service/core";
import type { PasswordHasher } from "./passwords.js";
import { hashToken, newToken } from "./tokens.js";
import { isCoreUsername, MAX_PASSWORD_LENGTH, memberAccountKey, normalizeUsername } from "./usernames.js";

/** Which account an attempt names: a core user by username, or a member of one flock by email. */
export type AccountRef = { kind: "core"; username: string } | { kind: "member"; flock: string; email: string };

/** The outcome of a credential check: `user` is set when the account exists, right password or not. */
export interface CredentialCheck {
  ok: boolean;
  user: UserRow | undefined;
}

/**
 * The stored username `ref` names, or undefined when it cannot name any account (too long,
 * or a core username holding a space, which is how member account keys are written).
 *
 * @example
 * accountKeyOf({ kind: "member", flock: "demo", email: "Ada@Example.org" }) // "demo ada@example.org"
 */
export function accountKeyOf(ref: AccountRef): string | undefined {
  const name = normalizeUsername(ref.kind === "core" ? ref.username : ref.email);
  if (!isCoreUsername(name)) return undefined;
  return ref.kind === "core" ? name : memberAccountKey(ref.flock, name);
}

/**
 * Checks the password of the account `ref` names. A core attempt only ever finds a core
 * account and a member attempt a member account of that flock.
 *
 * @example
 * const { ok, user } = await checkCredentials(storage, passwords, { kind: "core", username: "ada@example.org" }, "a long password");
 */
export async function checkCredentials(storage: Storage, passwords: PasswordHasher, ref: AccountRef, password: string): Promise<CredentialCheck> {
  const key = accountKeyOf(ref);
  const found = key === undefined ? undefined : await storage.getUser(key);
  const user = found && found.role === (ref.kind === "core" ? "core" : "self-service") ? found : undefined;
  // An overlong password is checked (cut to the longest accepted) like any other, then refused.
  const candidate = password.length > MAX_PASSWORD_LENGTH ? password.slice(0, MAX_PASSWORD_LENGTH) : password;
  const verified = user ? await passwords.verify(candidate, user.passwordHash) : await passwords.verifyDummy(candidate);
  return { ok: verified && user !== undefined && password.length <= MAX_PASSWORD_LENGTH, user };
}

/**
 * Issues a new token for the stored username `username`, valid for `lifetimeMs`, stored only
 * as its hash.
 *
 * @example
 * const { token, expires } = await issueToken(storage, clock, "ada@example.org", 86_400_000);
 */
export async function issueToken(
  storage: Storage,
  clock: Clock,
  username: string,
  lifetimeMs: number,
): Promise<{ token: string; tokenHash: string; expires: string }> {
  const now = clock.now();
  const token = newToken();
  const tokenHash = hashToken(token);
  const expires = formatTimestamp(new Date(now.getTime() + lifetimeMs));
  await storage.putApiKey({ tokenHash, username, created: formatTimestamp(now), expires });
  return { token, tokenHash, expires };
}
