import { describe, expect, it } from "vitest";
import { systemAttribution } from "../model/attribution.js";
import { setup } from "../records/test-helpers.js";
import { createMemoryStorage } from "../memory/memory.js";
import type { Storage } from "../storage/storage.js";
import { formatTimestamp } from "../time.js";
import { recordHistory } from "./record-history.js";
import { recordProvenance } from "./provenance.js";

const ADA = { actor: "ada@example.org", application: "Acme/Sync/2" };
const BOB = { actor: "bob", application: "Acme/Desk/1" };
const MIN = 60_000;

/** Ada's person: created by ada, renamed by bob, deleted and restored by bob, one minute apart each. */
async function story(storage?: Storage) {
  const t = await setup(storage);
  const { engine, clock } = t;
  const ada = await engine.withAttribution(ADA).create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
  clock.advance(MIN);
  await engine.withAttribution(BOB).update("demo", "person", ada.id, { last_name: "King", title: "Countess" });
  clock.advance(MIN);
  await engine.withAttribution(BOB).delete("demo", "person", ada.id);
  clock.advance(MIN);
  await engine.withAttribution(BOB).restore("demo", "person", ada.id);
  const read = async () => engine.get("demo", "person", ada.id);
  return { ...t, ada, read };
}

const summary = (results: { action: string; event: string | null; user: string | null; application: string | null; changed_fields: string[] | null; version: number | null }[]) =>
  results.map((e) => [e.action, e.event ?? e.version, e.user, e.application, e.changed_fields]);

describe("recordHistory", () => {
  it("lists the records referencing it however many events are about it (no data event is a reference)", async () => {
    const { engine } = await setup();
    const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    const uri = `/demo/person/${ada.id}/`;
    // More events about Ada than twice the related records listed, written before the membership.
    await engine.emit("demo", Array.from({ length: 210 }, () => ({ name: "login", contextUri: uri })));
    const membership = await engine.create("demo", "membership", { member: uri });
    const h = await recordHistory(engine.context, await engine.get("demo", "person", ada.id), { limit: 5 });
    expect(h.related_uris).toEqual([`/demo/membership/${membership.id}/`]);
  });

  it("lists every logged write with who, which application and what changed, and the events, newest first", async () => {
    const { engine, read } = await story();
    const h = await recordHistory(engine.context, await read(), { limit: 100 });
    expect(summary(h.results)).toEqual([
      ["restored", 4, "bob", "Acme/Desk/1", []],
      ["deleted", 3, "bob", "Acme/Desk/1", []],
      ["updated", 2, "bob", "Acme/Desk/1", ["last_name", "title", "formatted_name", "salutation", "sortable_name"]],
      ["event", "contact_created", null, null, null],
      ["created", 1, "ada@example.org", "Acme/Sync/2", expect.arrayContaining(["first_name", "last_name"])],
    ]);
    expect(h.count).toBe(5);
    expect(h.results.map((e) => e.when)).toEqual([...h.results.map((e) => e.when)].sort().reverse());
  });

  it("a write between reading the record and its log adds no second entry for the record's version", async () => {
    const { engine, read, ada } = await story();
    const stale = await read(); // version 4
    await engine.withAttribution(ADA).update("demo", "person", ada.id, { title: "Lady" }); // version 5, logged
    const h = await recordHistory(engine.context, stale, { limit: 100 });
    const versions = h.results.filter((e) => e.action !== "event").map((e) => e.version);
    expect(versions).toEqual([5, 4, 3, 2, 1]);
    expect(h.results.filter((e) => e.version === 4)).toHaveLength(1);
  });

  it("honours limit and since; the count is what since leaves", async () => {
    const { engine, read, clock } = await story();
    const record = await read();
    expect((await recordHistory(engine.context, record, { limit: 2 })).results.map((e) => e.action)).toEqual(["restored", "deleted"]);
    const since = formatTimestamp(new Date(clock.now().getTime() - 1.5 * MIN));
    const recent = await recordHistory(engine.context, record, { limit: 100, since });
    expect([recent.count, recent.results.map((e) => e.action)]).toEqual([2, ["restored", "deleted"]]);
    const one = await recordHistory(engine.context, record, { limit: 1, since });
    expect([one.count, one.results.map((e) => e.action)]).toEqual([2, ["restored"]]);
  });

  it("when the log was purged, the creation and the latest write are told from the record (no who, no fields)", async () => {
    const { engine, storage, read, clock } = await story();
    await storage.purgeChanges(formatTimestamp(new Date(clock.now().getTime() + 1)));
    const h = await recordHistory(engine.context, await read(), { limit: 100 });
    expect(summary(h.results)).toEqual([
      ["updated", 4, null, null, null],
      ["event", "contact_created", null, null, null],
      ["created", null, null, null, null],
    ]);
    // Written again: that write is logged, the older ones still come from the record.
    clock.advance(MIN);
    await engine.withAttribution(ADA).update("demo", "person", (await read()).id, { title: "Lady" });
    expect(summary((await recordHistory(engine.context, await read(), { limit: 100 })).results)).toEqual([
      ["updated", 5, "ada@example.org", "Acme/Sync/2", ["title", "formatted_name", "salutation"]],
      ["event", "contact_created", null, null, null],
      ["created", null, null, null, null],
    ]);
  });
});

describe("recordProvenance", () => {
  it("names who created the record and through which application while its creation is logged", async () => {
    const { engine, storage, read, clock } = await story();
    expect(await recordProvenance(engine.context, await read())).toMatchObject({ created_by: "ada@example.org", application: "Acme/Sync/2", version: 4 });
    await storage.purgeChanges(formatTimestamp(new Date(clock.now().getTime() - 2 * MIN)));
    expect(await recordProvenance(engine.context, await read())).toMatchObject({ created_by: null, application: null });
  });

  it("names the system marker of a record the service created", async () => {
    const { engine } = await setup();
    const r = await engine.withAttribution(systemAttribution("import")).create("demo", "journal", { kind: "note" });
    expect(await recordProvenance(engine.context, r)).toMatchObject({ created_by: null, application: "system:import", created_event: null });
  });
});
