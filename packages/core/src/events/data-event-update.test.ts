import { describe, expect, it } from "vitest";
import { isRecordsError } from "../errors.js";
import { setup } from "../records/test-helpers.js";
import { checkDataEventUpdate } from "./data-event-update.js";

const STORED = {
  name: "expiring_2wk",
  event: "expiring",
  variation: "2wk",
  fire_at: "2026-03-02T00:00:00.000000",
  context_ref: "/demo/membership/0123456789abcdef01234567/",
  tags: ["send-json-webhook"],
  expires_at: "2028-03-02T00:00:00.000000",
  dedupe_key: "expiring_2wk /demo/membership/0123456789abcdef01234567/ 2026-03-16T00:00:00.000000",
};

function problem(patch: Record<string, unknown>): string | undefined {
  try {
    checkDataEventUpdate(STORED, patch);
    return undefined;
  } catch (e) {
    if (!isRecordsError(e) || e.code !== "bad_request") throw e;
    return `${e.message}: ${e.detail}`;
  }
}

describe("checkDataEventUpdate", () => {
  it.each([
    [{ tags: [] }],
    [{ tags: null }],
    [{ tags: ["send-json-webhook", "mine"], note: "checked" }],
    [{ expires_at: "2030-01-01" }],
    [{ expires_at: "2026-03-02T00:00:00" }], // equal to fire_at
    [{ name: "expiring_2wk", variation: "2wk", context_ref: STORED.context_ref, fire_at: STORED.fire_at }], // unchanged
  ])("accepts %j", (patch) => {
    expect(problem(patch)).toBeUndefined();
  });

  it.each([
    [{ name: "lapsed_1d" }, "read-only fields: name of a data_event"],
    [{ event: "lapsed", variation: null }, "read-only fields: event, variation"],
    [{ fire_at: "2026-03-03T00:00:00.000000" }, "read-only fields: fire_at"],
    [{ context_ref: null }, "read-only fields: context_ref"],
    [{ dedupe_key: "x" }, "read-only fields: dedupe_key"],
    [{ tags: "send-json-webhook" }, "invalid tags"],
    [{ tags: ["ok", 3] }, "invalid tags"],
    [{ tags: { a: 1 } }, "invalid tags"],
    [{ expires_at: "next year" }, "invalid expires_at: expires_at must be a timestamp"],
    [{ expires_at: null }, "invalid expires_at"],
    [{ expires_at: 1893456000 }, "invalid expires_at"],
    [{ expires_at: "2026-03-01T23:59:59" }, "is before the event's fire_at 2026-03-02T00:00:00.000000"],
  ])("refuses %j", (patch, message) => {
    expect(problem(patch)).toContain(message);
  });
});

describe("engine.update of a data_event", () => {
  it("refuses each bad update with 400 and changes nothing; accepts tags and expiry", async () => {
    const t = await setup();
    const [event] = await t.engine.emit("demo", [{ name: "lapsed_1d", contextUri: null, fireAt: "2026-02-01T00:00:00.000000" }]);
    const before = await t.storage.getRecord("demo", "data_event", event!.id);
    for (const patch of [{ name: "contact_created" }, { tags: "x" }, { expires_at: "2026-01-01" }, { expires_at: "soon" }, { fire_at: "2026-02-02" }]) {
      await expect(t.engine.update("demo", "data_event", event!.id, patch), JSON.stringify(patch)).rejects.toMatchObject({ code: "bad_request" });
    }
    expect(await t.storage.getRecord("demo", "data_event", event!.id)).toEqual(before);
    const ok = await t.engine.update("demo", "data_event", event!.id, { expires_at: "2027-01-01", tags: ["mine"] });
    expect(ok.changed).toMatchObject({ tags: ["mine"] });
  });
});
