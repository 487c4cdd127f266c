/**
 * @module test/helpers/snapshot
 * A fingerprint of everything a request could change, to prove that a refused request
 * changed nothing: every flock's type summary and every record, deleted ones included.
 */
import { DEFAULT_RESOURCE_TYPES, type Storage } from "@records-service/core";

/** JSON text of all flocks, users' flocks, type summaries and records of every type. */
export async function snapshot(storage: Storage): Promise<string> {
  const flocks = await storage.listFlocks();
  const out: unknown[] = [flocks];
  for (const f of flocks) {
    out.push(await storage.summarizeTypes(f.identifier));
    for (const type of DEFAULT_RESOURCE_TYPES) {
      const page = await storage.listRecords(f.identifier, type, {
        filters: [],
        mode: "AND",
        states: ["updated", "deleted"],
        page: 1,
        pageSize: 1500,
      });
      if (page.total > 0) out.push(type, page.records);
    }
  }
  return JSON.stringify(out);
}
