/**
 * @module model/attribution
 * Who made a write and through which application: what the change log keeps beside each
 * record write (columns `actor` and `application`). The server fills it from the request
 * (the authenticated account, the `APPLICATION` label); the service's own work names
 * itself with a `system:` marker and no actor. Both null: not known (a write through an
 * engine that was given no attribution, or one logged before the columns existed).
 */

/** Who made the writes of a change set. */
export interface Attribution {
  /**
   * The account that asked for the write, as stored: a staff username, or a member
   * account's `"{flock} {email}"` (the space keeps the two apart); null for the service's
   * own work and when not known.
   */
  actor: string | null;
  /**
   * The request's `APPLICATION` label (`Organisation/Application/Version`), a system marker
   * (`system:scheduler`, see `systemAttribution`), or null (an unattributed request, or not
   * known).
   */
  application: string | null;
}

/** The service's own writers, each named by its marker `system:<name>`. */
const SYSTEM_WRITERS = ["scheduler", "outbox", "tasks", "import", "copy", "seed"] as const;
export type SystemWriter = (typeof SYSTEM_WRITERS)[number];

/** Prefix of the system markers. An `APPLICATION` label has two slashes, so none can take this form. */
const SYSTEM_APPLICATION_PREFIX = "system:";

/**
 * The attribution of the service's own work: no actor, the writer's marker as application.
 *
 * @example
 * systemAttribution("scheduler") // { actor: null, application: "system:scheduler" }
 */
export function systemAttribution(writer: SystemWriter): Attribution {
  return { actor: null, application: `${SYSTEM_APPLICATION_PREFIX}${writer}` };
}

