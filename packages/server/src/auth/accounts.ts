/**
 * @module auth/accounts
 * Accounts as the operator declares them (config `users[]`, `records-service user add`). A
 * core user is one account under its username. A self-service user is one member account
 * per listed flock (`"{flock} {username}"`, see auth/usernames), the same accounts members
 * get through `POST /api/v1/{flock}/user/`. Declaring a username self-service disables a
 * core account of that name: a username is staff or member for the operator, never both.
 * Replacing an account with another password revokes its keys and sessions; re-applying
 * the same password changes nothing (the config is applied at every start).
 */
import { badRequest, formatTimestamp, type Clock, type Storage, type UserRow } from "@records-service/core";
import { ALL_FLOCKS } from "./access.js";
import { checkCredentials, issueToken } from "./credentials.js";
import { defaultPasswordHasher, type PasswordHasher } from "./passwords.js";
import { isCoreUsername, MAX_PASSWORD_LENGTH, memberAccountKey, MIN_PASSWORD_LENGTH, normalizeUsername } from "./usernames.js";

export { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, normalizeUsername } from "./usernames.js";

/** The roles a user may have: staff (`core`) or member (`self-service`). */
export const ROLES = ["core", "self-service"] as const;
export type Role = (typeof ROLES)[number];

/** The stored hash of a disabled account: not a hash, so no password ever matches it. */
export const DISABLED_PASSWORD_HASH = "disabled";

/** What `createUser` takes. `flocks: ["*"]` gives a core user access to every flock. */
export interface NewUser {
  username: string;
  password: string;
  flocks: string[];
  role?: Role;
}

/** What `createUser` changed. */
export interface UserChange {
  /** The stored usernames written: the username of a core user, one member account key per flock. */
  accounts: string[];
  /** True when at least one of them did not exist before. */
  created: boolean;
  /** Keys and sessions revoked: of accounts whose password changed, and of a disabled core account. */
  revoked: number;
  /** True when a core account of this username was disabled (the username is now self-service). */
  disabledCore: boolean;
}

/**
 * Creates the user's accounts, or replaces them. Every named flock must exist; passwords
 * are 8 to 1024 characters. Throws a 400 `RecordsError` naming the bad value.
 *
 * @example
 * await createUser(storage, clock, { username: "ada@example.org", password: "a long password", flocks: ["demo"] });
 * // { accounts: ["ada@example.org"], created: true, revoked: 0, disabledCore: false }
 */
export async function createUser(
  storage: Storage,
  clock: Clock,
  u: NewUser,
  passwords: PasswordHasher = defaultPasswordHasher(),
): Promise<UserChange> {
  const username = _checkUsername(u.username);
  _checkPassword(u.password);
  const role = u.role ?? "core";
  if (!ROLES.includes(role)) {
    throw badRequest("invalid role", `role ${JSON.stringify(role)} is not one of ${ROLES.join(", ")}`);
  }
  const flocks = await _checkFlocks(storage, u.flocks, role);
  const change: UserChange = { accounts: [], created: false, revoked: 0, disabledCore: false };
  const put = async (key: string, accountFlocks: string[]) => {
    const { existed, revoked } = await _putAccount(storage, clock, passwords, { key, password: u.password, flocks: accountFlocks, role });
    change.accounts.push(key);
    change.created ||= !existed;
    change.revoked += revoked;
  };
  if (role === "core") {
    await put(username, flocks);
    return change;
  }
  for (const flock of flocks) await put(memberAccountKey(flock, username), [flock]);
  const core = await storage.getUser(username);
  if (core && core.role === "core" && (core.passwordHash !== DISABLED_PASSWORD_HASH || core.flocks.length > 0)) {
    await storage.putUser({ ...core, passwordHash: DISABLED_PASSWORD_HASH, flocks: [] });
    change.revoked += await storage.deleteApiKeysOf(username);
    change.disabledCore = true;
  }
  return change;
}

/**
 * Ends every key and session of the stored username `account`; returns how many there were
 * (expired ones included), or undefined when there is no such account.
 *
 * @example
 * await revokeAccount(storage, "ada@example.org") // 3
 */
export async function revokeAccount(storage: Storage, account: string): Promise<number | undefined> {
  if (!(await storage.getUser(account))) return undefined;
  return storage.deleteApiKeysOf(account);
}

/** Options of `login`. */
export interface LoginOptions {
  passwords?: PasswordHasher;
  /** Lifetime of the key (ms): the settings' `auth.keyTtlHours` in milliseconds. */
  keyTtlMs: number;
}

/**
 * Checks a core user's credentials and, when they match, issues a new API key (returned
 * once; only its hash is stored). No login guard and no events: the HTTP login paths go
 * through auth/login-flow instead.
 *
 * @example
 * const key = await login(storage, clock, "ada@example.org", "a long password", { keyTtlMs: 720 * 3_600_000 }); // 64 hex chars, or undefined
 */
export async function login(storage: Storage, clock: Clock, username: string, password: string, opts: LoginOptions): Promise<string | undefined> {
  const passwords = opts.passwords ?? defaultPasswordHasher();
  const { ok, user } = await checkCredentials(storage, passwords, { kind: "core", username }, password);
  if (!ok || !user) return undefined;
  return (await issueToken(storage, clock, user.username, opts.keyTtlMs)).token;
}

// --- internal ---

interface _Account {
  key: string;
  password: string;
  flocks: string[];
  role: UserRow["role"];
}

/**
 * Writes one account. The same password (and role) keeps the stored hash, rehashed only
 * when its cost is not the current one, and keeps the keys; another password revokes them.
 */
async function _putAccount(storage: Storage, clock: Clock, passwords: PasswordHasher, a: _Account): Promise<{ existed: boolean; revoked: number }> {
  const existing = await storage.getUser(a.key);
  const same = existing !== undefined && existing.role === a.role && (await passwords.verify(a.password, existing.passwordHash));
  const passwordHash = same && !passwords.needsRehash(existing.passwordHash) ? existing.passwordHash : await passwords.hash(a.password);
  await storage.putUser({
    username: a.key,
    passwordHash,
    flocks: a.flocks,
    role: a.role,
    created: existing?.created ?? formatTimestamp(clock.now()),
  });
  // After the write: a login that checked the old password before it cannot keep its key
  // (the login flow also re-reads the account after issuing one).
  const revoked = existing && !same ? await storage.deleteApiKeysOf(a.key) : 0;
  return { existed: existing !== undefined, revoked };
}

function _checkUsername(raw: unknown): string {
  if (typeof raw !== "string") throw badRequest("invalid username", "username must be a string");
  const username = normalizeUsername(raw);
  if (!isCoreUsername(username)) {
    throw badRequest(
      "invalid username",
      `username ${JSON.stringify(raw.slice(0, 80))} must be 1 to 254 characters without spaces or control characters`,
    );
  }
  return username;
}

function _checkPassword(password: unknown): void {
  if (typeof password !== "string" || password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(
      "invalid password",
      `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (the minimum password length is ${MIN_PASSWORD_LENGTH})`,
    );
  }
}

async function _checkFlocks(storage: Storage, flocks: unknown, role: Role): Promise<string[]> {
  if (!Array.isArray(flocks) || flocks.length === 0 || !flocks.every((f) => typeof f === "string")) {
    throw badRequest("invalid flocks", 'flocks must be a non-empty list of flock identifiers (or ["*"] for every flock)');
  }
  const unique = [...new Set(flocks as string[])];
  if (role === "self-service" && unique.includes(ALL_FLOCKS)) {
    throw badRequest("invalid flocks", 'a self-service user is a member of named flocks; "*" (every flock) is for core users');
  }
  for (const id of unique) {
    if (id !== ALL_FLOCKS && !(await storage.getFlock(id))) {
      throw badRequest("unknown flock", `flock ${JSON.stringify(id)} does not exist; create it before giving a user access`);
    }
  }
  return unique;
}
