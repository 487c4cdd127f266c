/**
 * @module auth/usernames
 * The shape of credentials every login path shares: username form and length limits.
 */

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
