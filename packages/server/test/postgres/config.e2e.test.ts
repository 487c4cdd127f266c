/**
 * End to end on PostgreSQL: `config apply` and `config show` with a PostgreSQL URL, and a
 * `serve` without `--config` that runs with the applied configuration (its triggers
 * included) and says so in one line; a second apply reaches it without restart.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { killAll, startCli } from "../e2e/spawn-cli.js";

const WAIT_MS = 90_000;
const PASSWORD = "pw-for-config-pg";

async function run(args: string[]): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  const p = startCli(args);
  const code = await p.exited(WAIT_MS);
  return { code, stdout: p.stdout, stderr: p.stderr };
}

describe.skipIf(!inject("pgAvailable"))("the applied configuration on PostgreSQL (CLI)", () => {
  let db: TestDatabase;
  const tmp = mkdtempSync(join(tmpdir(), "records-config-pg-"));
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    killAll();
    await db?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const file = (name: string, triggers: unknown[]) => {
    const path = join(tmp, name);
    writeFileSync(
      path,
      JSON.stringify({
        secret: "config-pg-secret-0123456789",
        flocks: [{ identifier: "demo", name: "Demo" }],
        users: [{ username: "ada@example.org", password: PASSWORD, flocks: ["*"] }],
        triggers,
      }),
    );
    return path;
  };
  const hook = { flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://hooks.example.org/in?token=t0ken" };

  it("config apply, config show, serve without --config, and a change taken up without restart", { timeout: 300_000 }, async () => {
    const first = file("first.json", [hook]);
    const applied = await run(["config", "apply", first, "--db", db.url]);
    expect(applied).toMatchObject({ code: 0, stdout: [expect.stringMatching(/^config: applied revision 1 to postgres:\/\//)] });
    const shown = await run(["config", "show", "--db", db.url]);
    expect(shown.code).toBe(0);
    const text = shown.stdout.join("\n");
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("t0ken");
    expect(JSON.parse(text)).toMatchObject({ revision: 1, source: first, config: { secret: "[redacted]", users: [{ password: "[redacted]" }] } });

    const p = startCli(["serve", "--port", "0", "--quiet", "--db", db.url]);
    const line = await p.line(/listening on http:\/\//, WAIT_MS);
    expect(p.stdout.filter((l) => l.startsWith("config: "))).toEqual([
      expect.stringMatching(/^config: using the configuration applied \S+Z \(revision 1, from .*first\.json; no --config given\)$/),
    ]);
    const base = /listening on (http:\/\/\S+)/.exec(line)![1]!;
    const login = await fetch(`${base}/api/v1/auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "ada@example.org", password: PASSWORD }),
    });
    const { api_key } = (await login.json()) as { api_key: string };
    const triggers = async () => {
      const res = await fetch(`${base}/api/v1/demo/triggers/`, { headers: { authorization: `Bearer ${api_key}`, application: "e2e/config-pg/1" } });
      return Object.keys((await res.json()) as object);
    };
    expect(await triggers()).toEqual(["contact_created"]);

    expect((await run(["config", "apply", file("second.json", []), "--db", db.url])).code).toBe(0);
    const end = Date.now() + WAIT_MS;
    while ((await triggers()).length > 0) {
      if (Date.now() > end) throw new Error("the server did not take up revision 2");
      await new Promise((r) => setTimeout(r, 100));
    }
    await p.line(/^config: now running with the configuration applied .*revision 2, from .*second\.json/, WAIT_MS);
    p.child.kill("SIGTERM");
    expect(await p.exited(WAIT_MS)).toBe(0);
  });
});
