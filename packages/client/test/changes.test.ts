/**
 * `client.changes(flock).subscribe` against a real server: every change once and in order,
 * across a server restart on the same file (the subscription reconnects from its position),
 * and errors that end it (403 for a flock the key cannot see).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createClient, RecordsApiError, type Change } from "../src/index.js";
import { APPLICATION, STAFF, testServer } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "records-client-changes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits (polling, bounded) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

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
    expect(seen.every((c) => c.resource_type === "person" && c.uri.startsWith("/demo/person/"))).toBe(true);
    expect(seen[0]!.fields).toContain("first_name");
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
