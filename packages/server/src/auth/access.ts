/**
 * @module auth/access
 * Which flocks a user may open. A user whose list holds `"*"` (an administrator) sees every
 * flock; any other user gets 403 for an existing flock outside its list. An unknown flock is
 * 404 for every key, as the contract's status list says (existence is checked first).
 */
import { notFound, RecordsError, type FlockRow, type FlockStore, type UserRow } from "@records-service/core";

/** The flock list entry that means "every flock". */
export const ALL_FLOCKS = "*";

/** True when the user may open every flock. */
export function isAdmin(user: UserRow): boolean {
  return user.flocks.includes(ALL_FLOCKS);
}

/**
 * The flock, when `user` may open it. Throws 404 for a flock that does not exist, 403 for an
 * existing flock outside a non-admin's list.
 *
 * @example
 * const flock = await assertFlockAccess(storage, user, "demo"); // { identifier: "demo", ... }
 */
export async function assertFlockAccess(storage: FlockStore, user: UserRow, flock: string): Promise<FlockRow> {
  const row = await storage.getFlock(flock);
  if (!row) throw notFound("unknown flock", `there is no flock ${_quote(flock)}`);
  if (!isAdmin(user) && !user.flocks.includes(flock)) {
    throw new RecordsError("forbidden", "forbidden", `this key has no access to flock ${_quote(flock)}`);
  }
  return row;
}

/**
 * The flocks the user may open that exist, ordered by identifier.
 *
 * @example
 * await visibleFlocks(storage, user) // [{ identifier: "demo", name: "Demo Society", ... }]
 */
export async function visibleFlocks(storage: FlockStore, user: UserRow): Promise<FlockRow[]> {
  if (isAdmin(user)) return storage.listFlocks();
  const rows = await Promise.all(user.flocks.map((id) => storage.getFlock(id)));
  return rows.filter((r): r is FlockRow => r !== undefined).sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
}

// --- internal ---

function _quote(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}...` : s);
}
