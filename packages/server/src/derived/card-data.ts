/**
 * @module derived/card-data
 * What a member card shows, read from the database: the flock's name, the member record
 * (not deleted), the person it names and the name of its plan. The HTML card (signed link)
 * and the PDF card (self-service) both start here.
 */
import {
  formatDate,
  isRecordUri,
  notFound,
  parseRecordUri,
  type FlockStore,
  type StoredRecord,
} from "@records-service/core";
import type { RouteEngine } from "../http/route-engine.js";
import type { CardInput } from "./card.js";

/** A member's card content, with the records it came from. */
export interface CardData {
  input: CardInput;
  member: StoredRecord;
  person: StoredRecord | undefined;
}

/**
 * The card of member `id` in `flock`. 404 for an unknown flock, an unknown member, or a
 * deleted one (its card is no longer valid).
 *
 * @example
 * const { input } = await loadCard(engine, flocks, "demo", id); renderCard(input);
 */
export async function loadCard(engine: RouteEngine, flocks: FlockStore, flock: string, id: string): Promise<CardData> {
  const { clock } = engine.context;
  const flockRow = await flocks.getFlock(flock);
  if (!flockRow) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock)}`);
  const member = await engine.get(flock, "member", id);
  if (member.state === "deleted") throw notFound("member not found", `member ${id} was deleted; its card is no longer valid`);
  const person = await _referenced(engine, member, "member", "person");
  const plan = await _referenced(engine, member, "membership_type");
  return {
    input: {
      flockName: flockRow.name,
      person: person ? person.data : null,
      membership: plan ? { ...member.data, membership_type: plan.displayValue } : member.data,
      today: formatDate(clock.now()),
    },
    member,
    person,
  };
}

// --- internal ---

/** The same-flock record a field references (a URI, maybe with a `;label`), in any state. */
async function _referenced(engine: RouteEngine, record: StoredRecord, field: string, type?: string): Promise<StoredRecord | undefined> {
  const raw = record.data[field];
  const uri = typeof raw === "string" ? raw.split(";")[0]!.trim() : undefined;
  if (!uri || !isRecordUri(uri)) return undefined;
  const ref = parseRecordUri(uri)!;
  if (ref.flock !== record.flock || (type !== undefined && ref.type !== type)) return undefined;
  // By key: a reference to a type the flock does not serve finds nothing, as before, not a 404.
  return (await engine.read.getRecords(record.flock, [{ type: ref.type, id: ref.id }]))[0];
}
