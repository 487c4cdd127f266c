import { describe, expect, it } from "vitest";
import { setup } from "../records/test-helpers.js";
import { formatTimestamp } from "../time.js";
import { flockHistory } from "./flock-history.js";
import type { AuditEntry } from "./entries.js";

const ADA = { actor: "ada@example.org", application: "Acme/Sync/2" };
const BOB = { actor: "bob", application: null };
const MIN = 60_000;

/** t0 ada creates a person (+ contact_created); t1 bob creates an organisation (+ contact_created); t2 ada updates the person; t3 bob writes a journal. */
async function story() {
  const t = await setup();
  const { engine, clock } = t;
  const ada = await engine.withAttribution(ADA).create("demo", "person", { first_name: "Ada" });
  clock.advance(MIN);
  const org = await engine.withAttribution(BOB).create("demo", "organisation", { name: "Acme" });
  clock.advance(MIN);
  await engine.withAttribution(ADA).update("demo", "person", ada.id, { last_name: "King" });
  clock.advance(MIN);
  await engine.withAttribution(BOB).create("demo", "journal", { kind: "note" });
  return { ...t, ada, org };
}

const brief = (results: AuditEntry[]) => results.map((e) => [e.action, e.event ?? e.uri.split("/")[2], e.user]);

describe("flockHistory", () => {
  it("lists the flock's logged writes newest first; a data event's recording is the event, with who caused it", async () => {
    const { engine, ada } = await story();
    const h = await flockHistory(engine.context, "demo", { limit: 100, skip: 0 });
    expect(brief(h.results)).toEqual([
      ["created", "journal", "bob"],
      ["updated", "person", "ada@example.org"],
      ["event", "contact_created", "bob"],
      ["created", "organisation", "bob"],
      ["event", "contact_created", "ada@example.org"],
      ["created", "person", "ada@example.org"],
    ]);
    expect(h.count).toBe(6);
    expect(h.results[1]).toMatchObject({ uri: `/demo/person/${ada.id}/`, version: 2, application: "Acme/Sync/2", changed_fields: ["last_name", "formatted_name", "sortable_name"] });
    expect(h.results[4]).toMatchObject({ uri: `/demo/person/${ada.id}/`, event_uri: expect.stringMatching(/^\/demo\/data_event\//) });
  });

  it("filters by resource type and time, and pages with skip and limit", async () => {
    const { engine } = await story();
    const q = (o: { limit?: number; skip?: number; from?: string; to?: string; resource?: string }) =>
      flockHistory(engine.context, "demo", { limit: o.limit ?? 100, skip: o.skip ?? 0, ...o });
    expect(brief((await q({ resource: "person" })).results)).toEqual([
      ["updated", "person", "ada@example.org"],
      ["created", "person", "ada@example.org"],
    ]);
    const page = await q({ skip: 1, limit: 2 });
    expect([page.count, brief(page.results)]).toEqual([6, [["updated", "person", "ada@example.org"], ["event", "contact_created", "bob"]]]);
    expect((await q({ from: "2026-01-15T10:01:00.000000", to: "2026-01-15T10:03:00.000000" })).count).toBe(3);
    expect((await q({ skip: 6 })).results).toEqual([]);
  });

  it("before the oldest kept change, the flock's data events tell the older part; skip and limit run across both", async () => {
    const { engine, storage, clock } = await story();
    // Keep only the last two writes (the update and the journal).
    await storage.purgeChanges(formatTimestamp(new Date(clock.now().getTime() - 1.5 * MIN)));
    const h = await flockHistory(engine.context, "demo", { limit: 100, skip: 0 });
    expect(brief(h.results)).toEqual([
      ["created", "journal", "bob"],
      ["updated", "person", "ada@example.org"],
      ["event", "contact_created", null],
      ["event", "contact_created", null],
    ]);
    expect(h.count).toBe(4);
    expect(brief((await flockHistory(engine.context, "demo", { limit: 2, skip: 1 })).results)).toEqual([
      ["updated", "person", "ada@example.org"],
      ["event", "contact_created", null],
    ]);
    const older = await flockHistory(engine.context, "demo", { limit: 100, skip: 0, resource: "organisation" });
    expect([older.count, older.results.map((e) => e.uri.split("/")[2])]).toEqual([1, ["organisation"]]);
  });

  it("with nothing kept (all purged), the answer is the flock's data events", async () => {
    const { engine, storage, clock } = await story();
    await storage.purgeChanges(formatTimestamp(new Date(clock.now().getTime() + 1)));
    const h = await flockHistory(engine.context, "demo", { limit: 100, skip: 0 });
    expect([h.count, brief(h.results)]).toEqual([2, [["event", "contact_created", null], ["event", "contact_created", null]]]);
  });

  it("refuses an unknown flock or resource type", async () => {
    const { engine } = await story();
    await expect(flockHistory(engine.context, "nowhere", { limit: 1, skip: 0 })).rejects.toMatchObject({ code: "not_found" });
    await expect(flockHistory(engine.context, "demo", { limit: 1, skip: 0, resource: "widget" })).rejects.toMatchObject({ code: "not_found" });
  });
});
