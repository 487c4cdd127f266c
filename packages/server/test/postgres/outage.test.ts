/**
 * The server on PostgreSQL when the database goes away while it serves: requests answer
 * 503 "database unavailable" in the shape of their surface, the process (and its workers)
 * keeps running, and it answers again by itself once the database is back. The database is
 * taken away by cutting a TCP proxy between the server and PostgreSQL.
 */
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { startServer, type RunningServer } from "../../src/runtime.js";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";

/** Waits (up to `ms`) until `ok()` holds. */
async function until(ok: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!inject("pgAvailable"))("a PostgreSQL outage while serving", () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let server: RunningServer;
  const out: string[] = [];
  let key = "";

  beforeAll(async () => {
    db = await createTestDatabase();
    const u = new URL(db.url);
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.port = String(proxy.port);
    const config = parseConfig({ database: { poolSize: 4, statementTimeoutMs: 5000 } });
    server = await startServer({ db: u.toString(), host: "127.0.0.1", port: 0, config, out: (l) => out.push(l) });
    const password = /password: (\S+)/.exec(out.find((l) => l.includes("password:"))!)![1]!;
    const login = await fetch(`${server.url}/api/v1/auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    });
    key = ((await login.json()) as { api_key: string }).api_key;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await db?.drop();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, application: "tests/records-service/1", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("answers 503 in each surface's shape while it is gone, and recovers by itself", async () => {
    const created = await api("POST", "/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace" });
    expect(created.status).toBe(201);
    expect((await api("GET", "/api/v1/demo/person/?last_name=Lovelace")).body.total).toBe(1);

    await proxy.cut();
    let v1 = await api("GET", "/api/v1/demo/person/?last_name=Lovelace");
    await until(async () => (v1 = await api("GET", "/api/v1/demo/person/?last_name=Lovelace")).status === 503);
    expect(v1.body).toEqual({ error: "database unavailable", error_detail: expect.stringContaining("retry later") });
    expect(JSON.stringify(v1.body)).not.toContain(String(proxy.port)); // where the database is stays private
    const v2 = await api("GET", "/api/v2/demo/person/?last_name=Lovelace");
    expect(v2.status).toBe(503);
    expect(v2.body).toMatchObject({ title: "database unavailable" });
    const write = await api("POST", "/api/v1/demo/person/", { first_name: "Charles", last_name: "Babbage" });
    expect(write.status).toBe(503);

    await proxy.restore();
    await until(async () => (await api("GET", "/api/v1/demo/person/?last_name=Lovelace")).status === 200);
    expect((await api("POST", "/api/v1/demo/person/", { first_name: "Charles", last_name: "Babbage" })).status).toBe(201);
    expect((await api("GET", "/api/v1/demo/person/")).body.total).toBe(2);
  });
});
