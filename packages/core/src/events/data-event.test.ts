import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import { createFakeClock } from "../time.js";
import { actionTag, buildDataEvent, defaultExpiry, hasActionRun, isDataEventExpired, tagsWithAction } from "./data-event.js";

const URI = "/demo/member/0123456789abcdef01234567/";

describe("buildDataEvent", () => {
  it.each([
    {
      name: "expiring_2wk",
      expected: { name: "expiring_2wk", event: "expiring", variation: "2wk" },
    },
    { name: "contact_created", expected: { name: "contact_created", event: "contact", variation: "created" } },
    { name: "login", expected: { name: "login", event: "login", variation: null } },
    {
      name: "reservation_state_new_to_confirmed",
      expected: { name: "reservation_state_new_to_confirmed", event: "reservation", variation: "state_new_to_confirmed" },
    },
  ])("$name", ({ name, expected }) => {
    const clock = createFakeClock("2026-03-01T09:30:00.250Z");
    const data = buildDataEvent({ name, fireAt: clock.now(), contextUri: URI });
    expect(data).toEqual({
      ...expected,
      fire_at: "2026-03-01T09:30:00.250000",
      context_ref: URI,
      tags: [],
      expires_at: "2028-03-01T09:30:00.250000",
    });
  });

  it("keeps a custom expiry and given tags (once each)", () => {
    const data = buildDataEvent({
      name: "lapsed_90d",
      fireAt: new Date("2026-03-01T00:00:00Z"),
      contextUri: null,
      expiresAt: new Date("2026-04-01T00:00:00Z"),
      tags: ["send-json-webhook", "send-json-webhook"],
    });
    expect(data.expires_at).toBe("2026-04-01T00:00:00.000000");
    expect(data.tags).toEqual(["send-json-webhook"]);
    expect(data.context_ref).toBeNull();
  });

  it.each([
    ["an expiry before the fire time", "2026-02-01T00:00:00Z"],
    ["an expiry at the fire time", "2026-03-01T00:00:00Z"],
  ])("refuses %s", (_, expires) => {
    expect(() =>
      buildDataEvent({ name: "lapsed_90d", fireAt: new Date("2026-03-01T00:00:00Z"), contextUri: URI, expiresAt: new Date(expires) }),
    ).toThrow(expect.objectContaining({ code: "bad_request", detail: expect.stringMatching(/expires_at .* must be after fire_at/) }));
  });

  it("refuses an unknown trigger name", () => {
    expect(() => buildDataEvent({ name: "lapsed_5y", fireAt: new Date(), contextUri: URI })).toThrow(RecordsError);
  });
});

describe("defaultExpiry", () => {
  it.each([
    ["2026-03-01T10:00:00Z", "2028-03-01T10:00:00.000Z"],
    ["2028-02-29T12:00:00Z", "2030-02-28T12:00:00.000Z"],
    ["2026-12-31T23:59:59.999Z", "2028-12-31T23:59:59.999Z"],
  ])("%s + 2 years = %s", (fire, expected) => {
    expect(defaultExpiry(new Date(fire)).toISOString()).toBe(expected);
  });
});

describe("isDataEventExpired", () => {
  const now = new Date("2028-03-01T10:00:00Z");
  it.each([
    ["2028-03-01T09:59:59.999999", true],
    ["2028-03-01T10:00:00.000000", true],
    ["2028-03-01T10:00:00.000001", true], // microseconds below the clock's milliseconds
    ["2028-03-01T10:00:00.001000", false],
    ["2028-03-02", false],
    ["2028-02-29", true],
    ["not a date", false],
    [null, false],
    [undefined, false],
  ])("expires_at %s → %s", (expires_at, expired) => {
    expect(isDataEventExpired({ expires_at }, now)).toBe(expired);
  });
});

describe("action tags", () => {
  it("marks an action as run, once, and unmarks when the tag is removed", () => {
    const data: Record<string, unknown> = { tags: [] };
    expect(hasActionRun(data, "send-json-webhook")).toBe(false);
    data.tags = tagsWithAction(data, "send-json-webhook");
    data.tags = tagsWithAction(data, "send-json-webhook");
    expect(data.tags).toEqual([actionTag("send-json-webhook")]);
    expect(hasActionRun(data, "send-json-webhook")).toBe(true);
    expect(hasActionRun(data, "send-templated-email")).toBe(false);
    data.tags = [];
    expect(hasActionRun(data, "send-json-webhook")).toBe(false);
  });

  it("treats missing or odd tags as none", () => {
    expect(hasActionRun({}, "send-webhook")).toBe(false);
    expect(tagsWithAction({ tags: "x" }, "send-webhook")).toEqual(["send-webhook"]);
    expect(tagsWithAction({ tags: ["a", 3] }, "send-webhook")).toEqual(["a", "send-webhook"]);
  });
});
