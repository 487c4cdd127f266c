/**
 * The client against the real server, over HTTP (startServer) and in-process (an app's
 * `request` as fetch): login, flocks, every record operation with typed person data, the
 * filter builder and paging, bulk tasks, data events, triggers, files, display, avatar,
 * card URL, self-service reservations, errors in both shapes, and the manual clock.
 */
import { createMemoryStorage, createRecordEngine } from "@records-service/core";
import { cardUrl, createApp, type RunningServer } from "@records-service/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, query, RecordsApiError, type PersonData, type RecordsClient } from "../src/index.js";
import { ADMIN, APPLICATION, STAFF, testServer, webhookReceiver } from "./server.js";

describe("the client against a running server", () => {
  let server: RunningServer;
  let client: RecordsClient;
  const seen: Headers[] = [];

  beforeAll(async () => {
    server = await testServer({ triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "http://127.0.0.1:9/unused", active: false }] });
    const recording = ((input: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    }) as typeof fetch;
    client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF, fetch: recording });
  });
  afterAll(() => server?.close());

  it("logs in with credentials once, sends APPLICATION on every call, lists flocks and types", async () => {
    expect(await client.flocks()).toEqual([{ identifier: "demo", name: "Demo Society" }]);
    const key = await client.login();
    expect(key).toMatch(/^\S{20,}$/);
    // The login itself is a data event (login).
    expect((await client.types("demo")).map((t) => t.name)).toEqual(["data_event"]);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((h) => h.get("application") === APPLICATION)).toBe(true);
    // The key from the first login is reused: only one POST /auth went out.
    expect(seen.filter((h) => h.get("authorization") === null)).toHaveLength(1);
    // A client given the key directly works the same.
    const byKey = createClient({ baseUrl: server.url, application: APPLICATION, apiKey: key });
    expect(await byKey.flocks()).toHaveLength(1);
  });

  it("runs every record operation, with person fields typed", async () => {
    const people = client.records("demo", "person");
    const ada = await people.create({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
    const id = ada.uri.split("/")[3]!;
    const data: PersonData = ada.data;
    expect(data.formatted_name).toBe("Ada Lovelace");
    expect((await people.get(id)).data.email).toEqual(["ada@example.org;home"]);
    expect(await people.update(id, { known_as: "Countess" })).toMatchObject({ known_as: "Countess" });
    expect(await people.patch(id, { title: "Lady" })).toMatchObject({ title: "Lady" });
    expect(await people.display(id)).toContain("Ada");
    expect((await people.touch(id)).meta.state).toBe("updated");
    expect(await people.recalc(id, { force: true })).toEqual({ status: "OK", force: true });
    expect((await people.delete(id)).meta.state).toBe("deleted");
    expect((await people.restore(id)).meta.state).toBe("updated");
    const avatar = await people.avatar(id, { format: "svg", size: 64 });
    expect(avatar.type).toBe("image/svg+xml");
    expect(await avatar.text()).toContain("<svg");
    const png = await people.avatar(id);
    expect(png.type).toBe("image/png");
    expect((await people.obfuscate(id)).data.first_name).not.toBe("Ada");
  });

  it("filters with modifiers, mode and smart dates, and iterates over every page", async () => {
    const people = client.records("demo", "person");
    for (const name of ["Babbage", "Boole", "Byron", "Brontë", "Hopper"]) await people.create({ first_name: "X", last_name: name, tags: name === "Hopper" ? ["vip"] : null });
    const bs = query<PersonData>().where("last_name", "startswith", "B").where("created", "gte", "last month").pageSize(2);
    const first = await people.list(bs);
    expect(first).toMatchObject({ grand_total: 4, pages: 2, page: 1, page_size: 2 });
    const all: string[] = [];
    for await (const p of people.all(bs)) all.push(p.data.last_name as string);
    expect(all.sort()).toEqual(["Babbage", "Boole", "Brontë", "Byron"]);
    const either = await people.list(query<PersonData>().where("last_name", "Boole").where("tags", "or", ["vip"]).mode("OR"));
    expect(either.results.map((r) => r.data.last_name).sort()).toEqual(["Boole", "Hopper"]);
    const v2 = await client.records("demo", "person", { surface: "v2" }).list(query<PersonData>().where("tags", "orlist", ["vip", "gala"]));
    expect(v2.results.map((r) => r.data.last_name)).toEqual(["Hopper"]);
  });

  it("throws one error class with the status and the v1 or v2 body", async () => {
    const v1 = await client.records("demo", "person").list(query<PersonData>().where("tags", "andlist", ["a"])).catch((e: unknown) => e);
    expect(v1).toBeInstanceOf(RecordsApiError);
    expect(v1).toMatchObject({ status: 400, isV2: false, body: { error: expect.any(String), error_detail: expect.stringContaining("andlist") } });
    const v2 = await client.records("demo", "person", { surface: "v2" }).get("000000000000000000000000").catch((e: unknown) => e);
    expect(v2).toMatchObject({ status: 404, isV2: true, body: { title: expect.any(String), description: expect.any(String), error: expect.any(String), type: "not_found" } });
    // The v2 body's title and description are what the error reports (its `error` repeats the title).
    expect((v2 as RecordsApiError).detail).toBe((v2 as RecordsApiError & { body: { description: string } }).body.description);
    const wrong = createClient({ baseUrl: server.url, application: APPLICATION, credentials: { username: "staff", password: "wrong password" } });
    await expect(wrong.flocks()).rejects.toMatchObject({ status: 403 });
  });

  it("queues a bulk action and waits for it with progress", async () => {
    const people = client.records("demo", "person");
    await people.create({ first_name: "Tag", last_name: "Me" });
    const task = await client.bulk("demo", { action: "add_tag", query: { last_name: "Me" }, value: "gala", description: "tag for the gala" });
    const seenStates: string[] = [];
    const done = await task.wait({ intervalMs: 20, onProgress: (p) => seenStates.push(p.state) });
    expect(done).toMatchObject({ state: "complete", matched: 1, changed: 1, errors: 0 });
    expect(seenStates.at(-1)).toBe("complete");
    expect((await people.list(query<PersonData>().where("tags", "gala"))).grand_total).toBe(1);
  });

  it("reads data events, triggers, uploads a file and builds the card URL", async () => {
    const events = await client.dataEvents("demo").list(query<{ name: string }>().where("name", "contact_created"));
    expect(events.grand_total).toBeGreaterThan(0);
    expect(events.results[0]!.data.name).toBe("contact_created");
    expect(Object.keys(await client.triggers("demo"))).toEqual(["contact_created"]);

    const journal = client.records("demo", "journal");
    const note = await journal.create({ subject: "minutes" });
    const id = note.uri.split("/")[3]!;
    const upload = await journal.upload(id, [{ field: "files", file: new Blob(["hello"], { type: "text/plain" }), filename: "minutes.txt" }]);
    expect(upload.updates.files?.[0]).toMatch(/^\/files\/v1\/demo\/[0-9a-f]{24}\/minutes\.txt$/);

    const person = await client.records("demo", "person").create({ first_name: "Mary", last_name: "Somerville" });
    const member = await client.records("demo", "member").create({ member: person.uri, membership_number: "M-1" });
    const memberId = member.uri.split("/")[3]!;
    const signed = new URL(cardUrl(server.url, "client-test-secret-0123456789", "demo", memberId));
    const url = client.cardUrl("demo", memberId, signed.searchParams.get("signature")!);
    expect(url).toBe(signed.toString());
    const card = await fetch(url);
    expect(card.status).toBe(200);
    expect(await card.text()).toContain("Somerville");
  });

  it("serves a member's own reservations through a self-service login", async () => {
    const ada = await client.records("demo", "person").create({ first_name: "Ada", email: ["member@example.org;home"] });
    const hall = await client.records("demo", "bookable").create({ name: "Hall" });
    const booking = await client.records("demo", "reservation").create({ buyer_ref: ada.uri, bookable_ref: hall.uri, fee: 5 });
    const bookingId = booking.uri.split("/")[3]!;
    expect(await client.createMember("demo", "member@example.org", "member password 1")).toMatchObject({ status: "created" });
    const member = createClient({ baseUrl: server.url, application: APPLICATION, credentials: { flock: "demo", email: "member@example.org", password: "member password 1" } });
    const mine = member.selfService("demo");
    expect((await mine.reservations()).reservations.map((r) => (r as { uid: string }).uid)).toEqual([bookingId]);
    expect((await mine.reservation(bookingId)).uid).toBe(bookingId);
    expect(await mine.cancel(bookingId, "ill")).toMatchObject({ status: "cancelled", cancellation_reason: "ill" });
    // A self-service token reaches only the self-service paths.
    await expect(member.flocks()).rejects.toMatchObject({ status: 403 });
    await member.logout();
  });

  it("lists a form's responses newest first with references expanded, and reads member accounts", async () => {
    const mia = await client.records("demo", "person").create({ first_name: "Mia", last_name: "Member", email: ["mia@example.org;home"] });
    const form = await client.records("demo", "form").create({ name: "Certificate" });
    const formId = form.uri.split("/")[3]!;
    for (const status of ["submitted", "draft", "submitted"]) await client.records("demo", "form_response").create({ form_ref: form.uri, contact_ref: mia.uri, status });
    const page = await client.forms("demo").responses(formId, query().where("status", "submitted").pageSize(50));
    expect(page.total).toBe(2);
    expect(page.results[0]!.data.contact_ref).toEqual({ display_value: "Mia Member", ref: mia.uri });
    const v2 = await client.forms("demo").responses(formId, undefined, { surface: "v2" });
    expect(v2.results.map((r) => r.data.status)).toEqual(["submitted", "draft", "submitted"]);

    await client.createMember("demo", "mia@example.org", "member password 2");
    const members = client.members("demo");
    expect(await members.preauth("Mia@Example.org")).toEqual({ email: "mia@example.org", username: "mia@example.org", status: "active", next_step: "password" });
    await expect(members.preauth("nobody@example.org")).rejects.toMatchObject({ status: 404, title: "no account" });
    expect(await members.byEmail("mia@example.org")).toMatchObject({ first_name: "Mia", person: mia.uri });
    const own = createClient({ baseUrl: server.url, application: APPLICATION, credentials: { flock: "demo", email: "mia@example.org", password: "member password 2" } });
    expect(await own.members("demo").get("mia@example.org")).toMatchObject({ username: "mia@example.org", person: { uri: mia.uri, first_name: "Mia" } });
    expect(await own.members("demo").person("mia@example.org")).toMatchObject({ uri: mia.uri, display_value: "Mia Member" });
    await expect(own.members("demo").byEmail("mia@example.org")).rejects.toMatchObject({ status: 403 });
    await own.logout();
  });
});

describe("the client in-process", () => {
  it("takes an app's request as its fetch", async () => {
    const app = createApp({ engine: createRecordEngine({ storage: createMemoryStorage() }), secret: "in-process-secret-0123456789" });
    const client = createClient({ baseUrl: "http://in-process", application: APPLICATION, apiKey: "unknown", fetch: ((input: string | URL | Request, init?: RequestInit) => app.request(input, init)) as typeof fetch });
    await expect(client.flocks()).rejects.toMatchObject({ status: 401, title: "unauthorized" });
  });
});

describe("client.clock against a server with --clock manual", () => {
  it("membership ending in 20 days: advance 6 days → the expiring_2wk webhook once; 1 more → nothing new", async () => {
    const hook = await webhookReceiver();
    const server = await testServer({
      manualClock: "2026-01-01T00:00:00Z",
      triggers: [{ flock: "demo", trigger: "expiring_2wk", action: "send-json-webhook", url: hook.url }],
    });
    try {
      const admin = createClient({ baseUrl: server.url, application: APPLICATION, credentials: ADMIN });
      expect(await admin.clock.now()).toBe("2026-01-01T00:00:00.000000");
      const person = await admin.records("demo", "person").create({ first_name: "Ada" });
      await admin.records("demo", "membership").create({ member: person.uri, end_date: "2026-01-21", auto_renew: false });
      expect(await admin.clock.advance({ days: 6 })).toEqual({ now: "2026-01-07T00:00:00.000000", fired: { expiring_2wk: 1 } });
      expect(hook.triggers).toEqual(["expiring_2wk"]);
      expect(await admin.clock.advance({ days: 1 })).toEqual({ now: "2026-01-08T00:00:00.000000", fired: {} });
      expect(hook.triggers).toEqual(["expiring_2wk"]);
      await expect(admin.clock.advance({ days: -1 })).rejects.toMatchObject({ status: 400 });
      const staff = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
      await expect(staff.clock.advance({ days: 1 })).rejects.toMatchObject({ status: 403 });
    } finally {
      await server.close();
      await hook.close();
    }
  });
});
