/**
 * @module storage/flock-store
 * The tenants: one row per flock. Read on every request (the server caches them against
 * `Connection.changeGeneration`), written by configuration and the CLI.
 */
import type { FlockRow } from "../model/account.js";

/** The flocks of a database. */
export interface FlockStore {
  /** Creates the flock; returns false (and changes nothing) if the identifier exists. */
  createFlock(flock: FlockRow): Promise<boolean>;
  /** The flock with this identifier, or undefined. */
  getFlock(identifier: string): Promise<FlockRow | undefined>;
  /** All flocks, ordered by identifier. */
  listFlocks(): Promise<FlockRow[]>;
  /** Sets the flock's display name (config reload); returns false if there is no such flock. */
  renameFlock(identifier: string, name: string): Promise<boolean>;
}
