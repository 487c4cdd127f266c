/**
 * @module model/account
 * Tenants and the accounts that reach them: a flock, a login, and an API key or session
 * token, as stored (see `FlockStore`, `AccountStore`).
 */
/** A tenant. */
export interface FlockRow {
  identifier: string;
  name: string;
  /** Timestamp (spec format). */
  created: string;
}

/** A login. Passwords are stored only as a self-describing hash (the server hashes). */
export interface UserRow {
  username: string;
  passwordHash: string;
  /** Flock identifiers this user may access; `"*"` means every flock. */
  flocks: string[];
  role: "core" | "self-service";
  created: string;
}

/** An API key or self-service session token, stored only as a hash of the token. */
export interface ApiKeyRow {
  /** Hex SHA-256 of the token: the token has 256 bits of entropy, so no salt is needed. */
  tokenHash: string;
  username: string;
  created: string;
  /** Timestamp after which the token no longer authenticates; null = never. */
  expires: string | null;
}
