/**
 * @module auth/usernames
 * The shape of credentials every login path shares: username form, length limits, and the
 * two account namespaces. A core (staff) account is stored under its username, which never
 * holds a space. A self-service (member) account belongs to one flock and is stored under
 * `"{flock} {email}"`: the space makes that key one no core username can be, so a member
 * account can never become, collide with or share keys with a core account, and members
 * of different flocks with one email address are different accounts.
 */

/** Longest accepted username (an email address is at most 254 characters). */
export const MAX_USERNAME_LENGTH = 254;
/** Longest accepted password; longer ones only cost hashing time. */
export const MAX_PASSWORD_LENGTH = 1024;
/** Shortest password accepted for any new password (staff and members alike). */
export const MIN_PASSWORD_LENGTH = 8;

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
 * True when `username` (normalised) can be a core username: 1 to 254 characters, no
 * spaces or control characters.
 *
 * @example
 * isCoreUsername("ada@example.org") // true
 * isCoreUsername("demo ada@example.org") // false: a member account's key
 */
export function isCoreUsername(username: string): boolean {
  return username.length > 0 && username.length <= MAX_USERNAME_LENGTH && !/[\s\p{Cc}]/u.test(username);
}

/**
 * The stored username of flock `flock`'s self-service account for `email`.
 *
 * @example
 * memberAccountKey("demo", "Ada@Example.org") // "demo ada@example.org"
 */
export function memberAccountKey(flock: string, email: string): string {
  return `${flock} ${normalizeUsername(email)}`;
}

/**
 * The login name inside a stored username: the email of a member account, the username
 * itself for a core account.
 *
 * @example
 * accountEmail("demo ada@example.org") // "ada@example.org"
 */
export function accountEmail(storedUsername: string): string {
  const space = storedUsername.indexOf(" ");
  return space < 0 ? storedUsername : storedUsername.slice(space + 1);
}

/**
 * The account kind a stored username's shape says: `self-service` for a member account key,
 * `core` otherwise. A row whose role disagrees is not trusted (see middleware/auth).
 *
 * @example
 * accountKind("demo ada@example.org") // "self-service"
 */
export function accountKind(storedUsername: string): "core" | "self-service" {
  return storedUsername.includes(" ") ? "self-service" : "core";
}
