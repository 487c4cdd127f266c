/**
 * @module audit/provenance
 * Where a record came from: when it was created and last written, the data event that
 * recorded its creation (`*_created`), who created it and through which application (its
 * first logged write, while the change log keeps it), and the source fields an import
 * leaves (`source`, `legacy_uid`, `external_ids`).
 */
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { ChangeRow } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";
import { eventsAbout, recordChanges } from "./record-history.js";

/** A record's provenance answer. */
export interface Provenance {
  uri: string;
  created: string;
  last_updated: string;
  version: number;
  state: string;
  /** URI of the `*_created` data event, or null (the type has none, or it expired). */
  created_event: string | null;
  source: unknown;
  legacy_uid: unknown;
  external_ids: unknown[];
  /** Who created it; null for the service's own work (an import) or when its creation is no longer logged. */
  created_by: string | null;
  /** The APPLICATION label (or `system:` marker) it was created through; null when unattributed or not logged. */
  application: string | null;
}

/**
 * Reads what `provenance` needs and answers it.
 *
 * @example
 * await recordProvenance(ctx, record) // { created_by: "ada@example.org", application: "Acme/Sync/2", ... }
 */
export async function recordProvenance(ctx: EngineContext, record: StoredRecord): Promise<Provenance> {
  const events = await eventsAbout(ctx, record.flock, recordUri(record.flock, record.type, record.id));
  const createdEvent = events.find((e) => typeof e.data.name === "string" && e.data.name.endsWith("_created"));
  const oldest = (await recordChanges(ctx, record, { limit: 0 })).oldest;
  return provenance(record, createdEvent, oldest?.version === 1 ? oldest : undefined);
}

/**
 * The provenance of a record, given the event that recorded its creation and its logged
 * creation (the change at version 1), when there are.
 *
 * @example
 * provenance(record, undefined, undefined).created_by // null
 */
function provenance(record: StoredRecord, createdEvent: StoredRecord | undefined, creation: ChangeRow | undefined): Provenance {
  return {
    uri: recordUri(record.flock, record.type, record.id),
    created: record.created,
    last_updated: record.lastUpdated,
    version: record.version,
    state: record.state,
    created_event: createdEvent ? recordUri(createdEvent.flock, createdEvent.type, createdEvent.id) : null,
    source: record.data.source ?? null,
    legacy_uid: record.data.legacy_uid ?? null,
    external_ids: Array.isArray(record.data.external_ids) ? record.data.external_ids : [],
    created_by: creation?.actor ?? null,
    application: creation?.application ?? null,
  };
}
