/**
 * `client.changes(flock).subscribe` against a real server: every change once and in order,
 * across a server restart on the same file (the subscription reconnects from its position),
 * and errors that end it (403 for a flock the key cannot see).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangeEvent } from "@records-service/core";
import { afterAll, describe, expect, it } from "vitest";
import { ChangeHandlerError, createClient, RecordsApiError, toChange, type Change } from "../src/index.js";
import { APPLICATION, STAFF, testServer } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "records-client-changes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits (polling, bounded) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("the Change shape", () => {
  it("is the engine's ChangeEvent (type-checked both ways), with the first shape's fields beside", () => {
    const event: ChangeEvent = {
      id: 7,
      data: { uri: "/demo/person/0123456789abcdef01234567/", resource_type: "person", state: "updated", version: 2, changed_at: "2026-11-28T10:00:00.000000", fields: ["email"] },
    };
    const change: Change = toChange(event.id, event.data);
    const asEngine: ChangeEvent = change;
    expect(asEngine).toMatchObject(event);
    expect(change.uri).toBe(event.data.uri);
  });
});

describe("client.changes(flock).subscribe", () => {
  it("delivers every change once, in order, across a restart of the server", async () => {
    const db = join(dir, "records.db");
    let server = await testServer({ db });
    const port = new URL(server.url).port;
    const client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    const people = client.records("demo", "person");
    const seen: Change[] = [];
    const sub = client.changes("demo").subscribe((c) => void seen.push(c), { types: ["person"], reconnectMs: 50 });
    await until(() => sub.position !== undefined, "the starting position");
    for (let i = 0; i < 5; i++) await people.create({ first_name: `A${i}`, last_name: "Before" });
    await until(() => seen.length === 5, "5 changes");
    await server.close();
    server = await testServer({ db, port: Number(port) });
    for (let i = 0; i < 5; i++) await people.create({ first_name: `B${i}`, last_name: "After" });
    await until(() => seen.length === 10, "10 changes");
    sub.close();
    await sub.done;
    await server.close();
    const ids = seen.map((c) => c.id);
    expect(new Set(ids).size).toBe(10);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(seen.every((c) => c.data.resource_type === "person" && c.data.uri.startsWith("/demo/person/"))).toBe(true);
    expect(seen[0]!.data.fields).toContain("first_name");
    // The engine's shape, and the first shape's top-level fields beside it.
    expect(Object.keys(seen[0]!.data).sort()).toEqual(["changed_at", "fields", "resource_type", "state", "uri", "version"]);
    expect(seen[0]).toMatchObject({ uri: seen[0]!.data.uri, version: 1, state: "updated" });
  });

  it("a handler that throws goes to onError once and the feed moves past that change", async () => {
    const server = await testServer({});
    const client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    const people = client.records("demo", "person");
    const calls: number[] = [];
    const errors: unknown[] = [];
    let failOn: string | undefined;
    const sub = client.changes("demo").subscribe(
      (c) => {
        calls.push(c.id);
        if (c.data.uri === failOn) throw new Error("handler bug");
      },
      { types: ["person"], reconnectMs: 10, onError: (e) => errors.push(e) },
    );
    await until(() => sub.position !== undefined, "the starting position");
    await people.create({ first_name: "A" });
    failOn = (await people.create({ first_name: "B" })).uri;
    await people.create({ first_name: "C" });
    await until(() => calls.length >= 3, "3 changes");
    // A later change arrives after the failed one: had the feed gone back, the failed one
    // would come again first.
    await people.create({ first_name: "D" });
    await until(() => calls.length >= 4, "4 changes");
    sub.close();
    await sub.done;
    await server.close();
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls).toHaveLength(4);
    expect(errors).toHaveLength(1);
    const error = errors[0] as ChangeHandlerError;
    expect(error).toBeInstanceOf(ChangeHandlerError);
    expect(error.change.data.uri).toBe(failOn);
    expect(error.change.id).toBe(calls[1]);
    expect((error.cause as Error).message).toBe("handler bug");
    expect(sub.position).toBe(calls[3]);
  });

  it("without onError, a throwing handler ends the subscription: done rejects with the change", async () => {
    const server = await testServer({});
    const client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    let calls = 0;
    const sub = client.changes("demo").subscribe(() => {
      calls += 1;
      throw new Error("handler bug");
    }, { types: ["person"], reconnectMs: 10 });
    const ended = sub.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    await until(() => sub.position !== undefined, "the starting position");
    const ada = await client.records("demo", "person").create({ first_name: "Ada" });
    const error = (await ended) as ChangeHandlerError;
    await client.records("demo", "person").create({ first_name: "Bob" });
    await server.close();
    expect(error).toBeInstanceOf(ChangeHandlerError);
    expect(error.change.data.uri).toBe(ada.uri);
    expect(sub.position).toBe(error.change.id);
    expect(calls).toBe(1);
  });

  it("ends with the server's error when the key may not read the flock", async () => {
    const server = await testServer({});
    const client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    let error: unknown;
    const sub = client.changes("no-such-flock").subscribe(() => {}, { onError: (e) => (error = e), reconnectMs: 10 });
    await sub.done;
    await server.close();
    expect(error).toBeInstanceOf(RecordsApiError);
    expect((error as RecordsApiError).status).toBe(404);
  });
});
