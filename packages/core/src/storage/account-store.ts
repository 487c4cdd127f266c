/**
 * @module storage/account-store
 * Logins and the keys that authenticate them: users with their password hash, API keys
 * and member sessions stored only as token hashes.
 */
import type { ApiKeyRow, UserRow } from "../model/account.js";

/** Users and their keys. */
export interface AccountStore {
  /** Creates or replaces the user with this username. */
  putUser(user: UserRow): Promise<void>;
  /** The user with this username, or undefined. */
  getUser(username: string): Promise<UserRow | undefined>;
  /** Stores a key (or session token) row, replacing one with the same hash. */
  putApiKey(key: ApiKeyRow): Promise<void>;
  /** The key row with this token hash (expired or not: the caller checks `expires`), or undefined. */
  getApiKey(tokenHash: string): Promise<ApiKeyRow | undefined>;
  /** Revokes a token; returns false if there was none. */
  deleteApiKey(tokenHash: string): Promise<boolean>;
  /**
   * Revokes every token of `username`, expired ones included (a password change, `user
   * revoke`); returns how many rows were deleted. Other users' tokens are untouched.
   */
  deleteApiKeysOf(username: string): Promise<number>;
  /**
   * Every token row of `username` (expired ones included, as stored until revoked), oldest
   * first: a member account's sessions (`user/?email=` shows the latest open one's expiry).
   */
  apiKeysOf(username: string): Promise<ApiKeyRow[]>;
  /**
   * Sets the user's `passwordHash` to `to` only while it is still `from` (compare and set, in
   * one statement); returns whether it did. A rehash at login uses it, so it can never undo a
   * password change committed meanwhile by another request or process. No such user: false.
   */
  replacePasswordHash(username: string, from: string, to: string): Promise<boolean>;
}
