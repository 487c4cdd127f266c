import { describe, expect, it } from "vitest";
import { systemAttribution } from "../model/attribution.js";
import { attributedStorage } from "../storage/attributed.js";
import { createMemoryStorage } from "../memory/memory.js";
import { createTask, runTask, runTaskChunk } from "../tasks/run.js";
import { taskSetup } from "../tasks/test-helpers.js";

const ADA = { actor: "ada@example.org", application: "Acme/Sync/2" };
const BOB = { actor: "bob", application: null };

/** [recordId, actor, application] of every change of the flock, in order. */
async function who(s: ReturnType<typeof createMemoryStorage>, flock = "demo") {
  return (await s.readChanges(flock, 0, 1000)).changes.map((c) => [c.type, c.actor, c.application]);
}

describe("engine.withAttribution", () => {
  it("logs each write with who made it; the engine it came from stays unattributed", async () => {
    const { engine, storage } = await taskSetup();
    const ada = await engine.withAttribution(ADA).create("demo", "person", { first_name: "Ada" });
    await engine.withAttribution(BOB).update("demo", "person", ada.id, { last_name: "King" });
    await engine.withAttribution(BOB).delete("demo", "person", ada.id);
    await engine.restore("demo", "person", ada.id);
    await engine.withAttribution(systemAttribution("scheduler")).emit("demo", [{ name: "login", contextUri: null }]);
    expect(await who(storage)).toEqual([
      ["person", ADA.actor, ADA.application],
      ["data_event", ADA.actor, ADA.application], // contact_created, in the same change set
      ["person", "bob", null],
      ["person", "bob", null],
      ["person", null, null],
      ["data_event", null, "system:scheduler"],
    ]);
  });

  it("a bound engine bound again acts for the newest attribution only", async () => {
    const { engine, storage } = await taskSetup();
    await engine.withAttribution(ADA).withAttribution(BOB).create("demo", "journal", { n: 1 });
    expect(await who(storage)).toEqual([["journal", "bob", null]]);
    expect(engine.withAttribution(ADA).context.attribution).toEqual(ADA);
    expect(engine.context.attribution).toBeUndefined();
  });
});

describe("tasks keep who queued them", () => {
  it("a task's chunks are logged as its requester's, whichever engine runs them", async () => {
    const { engine, storage, people, task } = await taskSetup();
    await people(4);
    const queued = await createTask(engine.withAttribution(ADA), "demo", "bulk_action", { action: "add_tag", query: {}, value: "gala" });
    expect((await task(queued.id)).data).toMatchObject({ requested_by: ADA.actor, application: ADA.application });
    const before = (await storage.readChanges("demo", 0, 1000)).head;
    await runTask(engine.withAttribution(systemAttribution("tasks")), "demo", queued.id, { chunkSize: 2 });
    const rows = (await storage.readChanges("demo", before, 1000)).changes;
    expect(rows.length).toBeGreaterThan(4);
    expect(new Set(rows.map((c) => `${c.actor}|${c.application}`))).toEqual(new Set([`${ADA.actor}|${ADA.application}`]));
  });

  it("a task that names no requester is logged as the runner's", async () => {
    const { engine, storage, people } = await taskSetup();
    await people(1);
    const queued = await createTask(engine, "demo", "bulk_action", { action: "add_tag", query: {}, value: "gala" });
    expect(queued.data).not.toHaveProperty("requested_by");
    const before = (await storage.readChanges("demo", 0, 1000)).head;
    await runTaskChunk(engine.withAttribution(systemAttribution("tasks")), "demo", queued.id);
    const rows = (await storage.readChanges("demo", before, 1000)).changes;
    expect(rows.map((c) => [c.actor, c.application])).toEqual(rows.map(() => [null, "system:tasks"]));
  });
});

describe("attributedStorage", () => {
  it("stamps apply and finishJob, keeps a set's own attribution, and leaves every other member as it is", async () => {
    const base = createMemoryStorage();
    const s = attributedStorage(base, ADA);
    await s.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    const record = (n: number) => ({ id: n.toString(16).padStart(24, "0"), flock: "demo", type: "thing", state: "updated" as const, data: {}, displayValue: "", created: "2026-01-01T00:00:00.000000", lastUpdated: "2026-01-01T00:00:00.000000", version: 1 });
    await s.apply({ records: [{ kind: "insert", record: record(1) }] });
    await s.apply({ records: [{ kind: "insert", record: record(2) }], attribution: BOB });
    await attributedStorage(s, systemAttribution("import")).apply({ records: [{ kind: "insert", record: record(3) }] });
    expect((await base.readChanges("demo", 0, 10)).changes.map((c) => c.actor ?? c.application)).toEqual([ADA.actor, "bob", "system:import"]);
    expect(s.changeGeneration()).toBe(base.changeGeneration());
    expect(typeof s.readChangeHistory).toBe("function");
    expect("syncChanges" in s).toBe("syncChanges" in base);
  });
});
