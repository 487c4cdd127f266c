/**
 * End to end: no silent traps at start. A `--db` (or DATABASE_URL) that looks like a URL
 * but is not one exits 2 with the expected forms and creates nothing; `--clock manual`
 * refuses a database that holds records unless `--allow-existing-data`; a port in use is
 * one line naming --port and PORT (exit 1), once even for `--processes 2`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DB_FORMS } from "../../src/db-value.js";
import { killAll, startCli } from "./spawn-cli.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "records-traps-e2e-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

// Sequential: each case spawns the CLI (several seconds each on a loaded machine).
const WAIT = 120_000;
const run = async (args: string[], env?: Record<string, string | undefined>) => {
  const p = startCli(args, env);
  const code = await p.exited(WAIT);
  return { code, stdout: p.stdout, stderr: p.stderr };
};

describe("serve refuses what would start on the wrong database", { timeout: 400_000 }, () => {
  it.each([
    { args: ["--db", "postgres:/bad"], env: {}, line: `bad --db "postgres:/bad": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { args: ["--db", "postgresql//x"], env: {}, line: `bad --db "postgresql//x": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { args: ["--db", "postgress://db/records"], env: {}, line: `bad --db "postgress://db/records": not a valid PostgreSQL URL; ${DB_FORMS}` },
    { args: ["--db", "mysql://root@db/records"], env: {}, line: `bad --db "mysql://root@db/records": looks like a URL with scheme "mysql:", which is not a database this service opens; ${DB_FORMS}` },
    { args: [], env: { DATABASE_URL: "postgres:/bad" }, line: `bad DATABASE_URL "postgres:/bad": not a valid PostgreSQL URL; ${DB_FORMS}` },
  ])("$args $env: exit 2, one line, nothing created", async ({ args, env, line }) => {
    const before = readdirSync(ROOT).sort();
    const r = await run(["serve", "--port", "0", ...args], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual([line]);
    expect(r.stdout.join("\n")).not.toContain("password");
    expect(readdirSync(ROOT).sort()).toEqual(before);
    expect(existsSync(join(ROOT, "postgres:"))).toBe(false);
  });

  it("--clock manual starts on a database without records, refuses one with records, and runs on it with --allow-existing-data", async () => {
    const db = join(tmp, "clock", "records.db");
    expect((await run(["flock", "add", "demo", "--db", db])).code).toBe(0);
    const clockArgs = ["serve", "--db", db, "--port", "0", "--quiet", "--clock", "manual=2026-01-01T00:00:00Z"];
    // A flock and users are not records: the emulator may start.
    const empty = startCli(clockArgs);
    await empty.line(/listening on http:\/\//, WAIT);
    empty.child.kill("SIGTERM");
    expect(await empty.exited(WAIT)).toBe(0);

    const rows = join(tmp, "people.ndjson");
    writeFileSync(rows, `${JSON.stringify({ first_name: "Ada", last_name: "Lovelace" })}\n`);
    expect((await run(["import", rows, "--flock", "demo", "--db", db])).code).toBe(0);
    const refused = await run(clockArgs);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toEqual([
      `records-service: refusing to run the manual clock (--clock manual) on ${db}: it holds records (1 live, in flock demo) that the emulator's clock would stamp with made-up times; use --db :memory: or a scratch file, or add --allow-existing-data to run on it anyway`,
    ]);
    expect(refused.stdout.join("\n")).not.toContain("listening");

    const allowed = startCli([...clockArgs, "--allow-existing-data"]);
    expect(await allowed.line(/manual clock at/, WAIT)).toContain("2026-01-01T00:00:00.000Z");
    await allowed.line(/listening on http:\/\//, WAIT);
    allowed.child.kill("SIGTERM");
    expect(await allowed.exited(WAIT)).toBe(0);
  });

  it("a port in use is one line naming --port and PORT, exit 1, also for --processes 2", async () => {
    const first = startCli(["serve", "--db", ":memory:", "--port", "0", "--quiet"]);
    const port = new URL(/listening on (http:\/\/\S+)/.exec(await first.line(/listening on http:\/\//, WAIT))![1]!).port;
    const line = `records-service: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop what listens there or choose another port with --port N (or env PORT)`;
    const one = await run(["serve", "--db", ":memory:", "--port", port]);
    expect(one.code).toBe(1);
    expect(one.stderr).toEqual([line]);
    const two = await run(["serve", "--db", join(tmp, "cluster", "records.db"), "--processes", "2"], { PORT: port });
    expect(two.code).toBe(1);
    expect(two.stderr).toEqual([line]);
    expect(two.stdout.join("\n")).not.toContain("password");
    first.child.kill("SIGTERM");
    expect(await first.exited(WAIT)).toBe(0);
  });
});
