/**
 * @module runtime/resume-held
 * Held outbox jobs (their trigger was missing or inactive) go back to pending once their
 * trigger is configured and active again. Every process runs this after each configuration
 * it loads (at start and at every reload, after its previous workers have stopped, so no
 * hold decided under the old configuration is written after it); the storage's one-statement
 * resume lets several processes do so at once.
 */
import { formatTimestamp, type Clock, type Storage, type TriggerConfig } from "@records-service/core";

/**
 * Resumes the held jobs of every active trigger in `triggers`; returns how many resumed.
 *
 * @example
 * await resumeHeldJobs(storage, clock, config.triggers); // 22
 */
export async function resumeHeldJobs(storage: Storage, clock: Clock, triggers: readonly TriggerConfig[]): Promise<number> {
  const now = formatTimestamp(clock.now());
  const seen = new Set<string>();
  let resumed = 0;
  for (const t of triggers) {
    const key = `${t.flock}\u0000${t.trigger}\u0000${t.action}`;
    if (!t.active || seen.has(key)) continue;
    seen.add(key);
    resumed += await storage.resumeHeldJobs(t.flock, t.trigger, t.action, now);
  }
  return resumed;
}
