/**
 * @module model/outbox
 * The durable outbox entry: one action to run for one data event and one trigger.
 */

/**
 * Where an outbox job stands: waiting (first try or a retry), delivered, given up (the
 * receiver never accepted within the retry window), or held (its trigger is missing or
 * inactive in the configuration: kept, not attempted, until `resumeHeldJobs` for it).
 */
export type OutboxStatus = "pending" | "done" | "dead" | "held";

/**
 * One action to run for one data event and one trigger: the durable outbox entry. It is
 * written in the same transaction as its data event and kept after it finished, so
 * operators can see every delivery's attempts and last error.
 */
export interface OutboxJob {
  /** 24-hex id. */
  id: string;
  flock: string;
  /** The data_event record the action runs for. */
  dataEventId: string;
  /** The trigger name (`contact_created`). */
  trigger: string;
  /** The action name (`send-json-webhook`). */
  action: string;
  /** Sent to receivers (`X-Records-Delivery`, `webhook-id`); the same on every attempt. */
  deliveryId: string;
  status: OutboxStatus;
  /** Attempts made so far. */
  attempts: number;
  /** Timestamp (spec format) at or after which the job is due; meaningful while pending. */
  nextAttemptAt: string;
  /** Timestamp of the first attempt; null before it. The retry window counts from it. */
  firstAttemptAt: string | null;
  lastError: string | null;
  /** HTTP status of the last attempt, when it got an answer. */
  lastStatus: number | null;
  /**
   * The request body of the first attempt (webhooks), kept so that every retry sends the
   * same bytes; null (or absent) before it.
   */
  body?: string | null;
  created: string;
  /**
   * Timestamp at which the current claim (`claimDueJobs`) lapses; null while unclaimed.
   * Adapters return it; a job given to `apply` leaves it out (a new job is unclaimed).
   */
  claimedUntil?: string | null;
}
