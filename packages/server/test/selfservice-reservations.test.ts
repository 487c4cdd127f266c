/**
 * The spec's self-service reservations table on both path forms: list (URIs), get (the
 * single form with `{display_value, ref}`), cancel (status `cancelled`, the reason, the
 * `reservation_cancelled` event), and no access to anyone else's reservation.
 */
import type { StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { createV2TestApp, seedPeople, type V2TestApp } from "./helpers/v2-app.js";

const PREFIXES = ["/api/v2/selfservice", "/selfservice/v2"] as const;

async function setup() {
  const t = await createV2TestApp();
  const people = await seedPeople(t);
  const hall = (await t.engine.create("alpha", "bookable", { name: "Great Hall" })).id;
  const reservation = (buyer: string, extra: Record<string, unknown> = {}) =>
    t.engine.create("alpha", "reservation", {
      buyer_ref: `/alpha/person/${buyer}/`,
      bookable_ref: `/alpha/bookable/${hall}/`,
      start_datetime: "2026-03-01T18:30:00.250000",
      end_datetime: "2026-03-01T21:00:00",
      currency: "GBP",
      fee: 12.5,
      number_of_attendees: 2,
      pricing: "full_price",
      tags: ["self-service"],
      notes: "staff only",
      ...extra,
    });
  const mine = (await reservation(people.ada, { name: "Lecture" })).id;
  const second = (await reservation(people.ada)).id;
  const theirs = (await reservation(people.grace)).id;
  return { t, ...people, hall, mine, second, theirs };
}

async function events(t: V2TestApp, name: string): Promise<StoredRecord[]> {
  const page = await t.storage.listRecords("alpha", "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 100 });
  return page.records.filter((r) => r.data.name === name);
}

describe.each(PREFIXES)("%s", (prefix) => {
  it("GET reservations/ lists the caller's reservations in the list form", async () => {
    const { t, ada, hall, mine, second } = await setup();
    const res = await t.call("GET", `${prefix}/alpha/reservations/`, { key: KEYS.member });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { person_uri: string; reservations: Record<string, unknown>[] };
    expect(body.person_uri).toBe(`/alpha/person/${ada}/`);
    expect(body.reservations.map((r) => r.uid)).toEqual([mine, second]);
    expect(body.reservations[0]).toEqual({
      uid: mine,
      uri: `/alpha/reservation/${mine}/`,
      active: null,
      bookable_ref: `/alpha/bookable/${hall}/`,
      booking_ref: [],
      buyer_ref: `/alpha/person/${ada}/`,
      currency: "gbp",
      start_datetime: "2026-03-01T18:30:00",
      end_datetime: "2026-03-01T21:00:00",
      enquiry: null,
      fee: 12.5,
      formatted_title: "Lecture",
      name: "Lecture",
      number_of_attendees: 2,
      pricing: "full_price",
      status: null,
      tags: ["self-service"],
      tax: null,
      tax_rate: null,
    });
  });

  it("GET reservation/{id}/ answers the single form with display values", async () => {
    const { t, ada, hall, mine } = await setup();
    const res = await t.call("GET", `${prefix}/alpha/reservation/${mine}/`, { key: KEYS.member });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.bookable_ref).toEqual({ display_value: "Great Hall", ref: `/alpha/bookable/${hall}/` });
    expect(body.buyer_ref).toEqual({ display_value: "Ada Lovelace", ref: `/alpha/person/${ada}/` });
    expect(body.start_datetime).toBe("2026-03-01T18:30:00");
    expect(body).not.toHaveProperty("notes");
    expect(body).not.toHaveProperty("cancellation_reason");
  });

  it("DELETE reservation/{id}/ cancels: status cancelled, the reason stored, the event emitted", async () => {
    const { t, mine } = await setup();
    const res = await t.call("DELETE", `${prefix}/alpha/reservation/${mine}/?cancellation_reason=${encodeURIComponent(" Ill, sorry ")}`, { key: KEYS.member });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ uid: mine, status: "cancelled", cancellation_reason: "Ill, sorry" });
    expect(body.buyer_ref).toMatchObject({ display_value: "Ada Lovelace" });
    const stored = await t.engine.get("alpha", "reservation", mine);
    expect(stored.data).toMatchObject({ status: "cancelled", cancellation_reason: "Ill, sorry", notes: "staff only" });
    expect(stored.state).toBe("updated");
    expect((await events(t, "reservation_cancelled")).map((e) => e.data.context_ref)).toEqual([`/alpha/reservation/${mine}/`]);
  });

  it("DELETE without a reason cancels without cancellation_reason", async () => {
    const { t, second } = await setup();
    const body = (await (await t.call("DELETE", `${prefix}/alpha/reservation/${second}`, { key: KEYS.member })).json()) as Record<string, unknown>;
    expect(body.status).toBe("cancelled");
    expect(body).not.toHaveProperty("cancellation_reason");
  });

  it("cancelling twice answers 409 and changes nothing", async () => {
    const { t, mine } = await setup();
    await t.call("DELETE", `${prefix}/alpha/reservation/${mine}/?cancellation_reason=first`, { key: KEYS.member });
    const before = await t.engine.get("alpha", "reservation", mine);
    const res = await t.call("DELETE", `${prefix}/alpha/reservation/${mine}/?cancellation_reason=second`, { key: KEYS.member });
    expect(res.status).toBe(409);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
    expect(await t.engine.get("alpha", "reservation", mine)).toEqual(before);
    expect(await events(t, "reservation_cancelled")).toHaveLength(1);
  });

  it("a too long reason is 400 and cancels nothing", async () => {
    const { t, mine } = await setup();
    const res = await t.call("DELETE", `${prefix}/alpha/reservation/${mine}/?cancellation_reason=${"x".repeat(1001)}`, { key: KEYS.member });
    expect(res.status).toBe(400);
    expect((await t.engine.get("alpha", "reservation", mine)).data.status).toBeUndefined();
  });

  it.each(["GET", "DELETE"])("%s another person's reservation is 404 and changes nothing", async (method) => {
    const { t, theirs } = await setup();
    const before = await t.engine.get("alpha", "reservation", theirs);
    const res = await t.call(method, `${prefix}/alpha/reservation/${theirs}/`, { key: KEYS.member });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: "reservation not found" });
    expect(await t.engine.get("alpha", "reservation", theirs)).toEqual(before);
  });

  it.each([
    { name: "an unknown reservation", id: "0123456789abcdef01234567" },
    { name: "a malformed id", id: "not-an-id" },
  ])("GET and DELETE of $name are 404", async ({ id }) => {
    const { t } = await setup();
    for (const method of ["GET", "DELETE"]) {
      const res = await t.call(method, `${prefix}/alpha/reservation/${id}/`, { key: KEYS.member });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ title: "reservation not found" });
    }
  });

  it("a deleted reservation, or a record of another type, is 404", async () => {
    const { t, second, ada } = await setup();
    await t.engine.delete("alpha", "reservation", second);
    expect((await t.call("GET", `${prefix}/alpha/reservation/${second}/`, { key: KEYS.member })).status).toBe(404);
    expect((await t.call("GET", `${prefix}/alpha/reservation/${ada}/`, { key: KEYS.member })).status).toBe(404);
    const list = (await (await t.call("GET", `${prefix}/alpha/reservations`, { key: KEYS.member })).json()) as { reservations: unknown[] };
    expect(list.reservations).toHaveLength(1);
  });

  it.each([
    { name: "no token", key: undefined, flock: "alpha", status: 401 },
    { name: "a core key", key: KEYS.alice, flock: "alpha", status: 403 },
    { name: "another flock", key: KEYS.member, flock: "beta", status: 403 },
  ])("answers $status for $name", async ({ key, flock, status }) => {
    const { t } = await setup();
    const res = await t.call("GET", `${prefix}/${flock}/reservations/`, { key });
    expect(res.status).toBe(status);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
  });

  it("answers 404 when no person has the caller's email", async () => {
    const t = await createV2TestApp();
    const res = await t.call("GET", `${prefix}/alpha/reservations/`, { key: KEYS.member });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: "person not found" });
  });
});

describe("the caller's person", () => {
  it("is the earliest created, non-deleted person whose email address equals the username (case ignored)", async () => {
    const t = await createV2TestApp();
    const near = (await t.engine.create("alpha", "person", { first_name: "Near", email: ["member@example.org.uk;home"] })).id;
    const gone = (await t.engine.create("alpha", "person", { first_name: "Gone", email: ["member@example.org"] })).id;
    await t.engine.delete("alpha", "person", gone);
    const first = (await t.engine.create("alpha", "person", { first_name: "First", email: ["x@example.org;work", "MEMBER@example.org;home"] })).id;
    await t.engine.create("alpha", "person", { first_name: "Second", email: ["member@example.org"] });
    const body = (await (await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: KEYS.member })).json()) as { person_uri: string };
    expect(body.person_uri).toBe(`/alpha/person/${first}/`);
    expect(body.person_uri).not.toContain(near);
  });

  it("ignores people of other flocks", async () => {
    const t = await createV2TestApp();
    await t.engine.create("beta", "person", { first_name: "Beta", email: ["member@example.org"] });
    expect((await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: KEYS.member })).status).toBe(404);
  });
});
