/**
 * @module auth/caller-person
 * Which person record a self-service user is: the non-deleted person of the flock with an
 * email entry whose address (the part before `;`, as in `ada@example.org;home`) equals the
 * username, case ignored; the earliest created when several do (contract). Found with an
 * indexed prefix query (`email__startswithi`), then checked exactly, never by a scan.
 */
import { parseListQuery, type StoredRecord } from "@records-service/core";
import type { RouteEngine } from "../http/route-engine.js";

/** Candidates read per page while looking for an exact match among prefix matches. */
const PAGE_SIZE = 100;

/**
 * The caller's person in `flock`, or undefined when none matches.
 *
 * @example
 * await findCallerPerson(engine, "demo", "ada@example.org") // the person with "Ada@Example.org;home"
 */
export async function findCallerPerson(engine: RouteEngine, flock: string, username: string): Promise<StoredRecord | undefined> {
  const address = username.trim().toLowerCase();
  if (address === "") return undefined;
  const now = engine.context.clock.now();
  for (let page = 1; ; page++) {
    const params: [string, string][] = [
      ["email__startswithi", address],
      ["page", String(page)],
      ["page_size", String(PAGE_SIZE)],
    ];
    const result = await engine.list(flock, "person", parseListQuery(params, { surface: "v2", now }));
    // Lists follow creation order, so the first exact match is the earliest created.
    const match = result.records.find((r) => hasEmailAddress(r, address));
    if (match) return match;
    if (page * PAGE_SIZE >= result.total) return undefined;
  }
}

/**
 * True when one of the person's email entries has exactly `address` (lower-case) before its `;label`.
 *
 * @example
 * // person.data.email: ["Ada@Example.org;home"]
 * hasEmailAddress(person, "ada@example.org") // true
 */
function hasEmailAddress(person: StoredRecord, address: string): boolean {
  const emails = person.data["email"];
  const entries = Array.isArray(emails) ? emails : [emails];
  return entries.some((e) => typeof e === "string" && e.split(";")[0]!.trim().toLowerCase() === address);
}
