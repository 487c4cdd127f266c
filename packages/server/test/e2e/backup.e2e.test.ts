/**
 * End to end: `records-service backup` while a server spawned through the real CLI takes
 * creates from a loop, then `restore` into a new file and serve it: every create
 * acknowledged before the backup command started is there. Keep-N pruning, restore
 * refusing a non-empty target without --force, and PostgreSQL answered with pg_dump /
 * pg_restore (exit 2).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-backup-e2e-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

// Each command is a fresh process (several seconds each on a loaded machine), one after another.
const WAIT = 120_000;
async function run(args: string[]) {
  const p = startCli(args);
  const code = await p.exited(WAIT);
  return { code, stdout: p.stdout, stderr: p.stderr };
}

async function serve(db: string) {
  const p = startCli(["serve", "--db", db, "--port", "0", "--quiet"]);
  const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//, WAIT))![1]!;
  return { p, url };
}

async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { api_key: string }).api_key;
}

const headers = (key: string) => ({ authorization: `Bearer ${key}`, application: "e2e/backup/1", "content-type": "application/json" });

describe("backup and restore through the CLI", { timeout: 900_000 }, () => {
  it("backs up under write load, restores with every acknowledged write, and the restored file serves", async () => {
    const db = join(tmp, "live", "records.db");
    const dir = join(tmp, "backups");
    const { p: server, url } = await serve(db);
    const username = /username: (\S+)/.exec(await server.line(/^\s+username: /, WAIT))![1]!;
    const password = /password: (\S+)/.exec(await server.line(/^\s+password: /, WAIT))![1]!;
    const key = await login(url, username, password);

    // Creates from a loop, each id noted when its 201 arrives.
    const acknowledged: string[] = [];
    let writing = true;
    const loop = (async () => {
      for (let i = 0; writing; i++) {
        const res = await fetch(`${url}/api/v1/demo/person/`, { method: "POST", headers: headers(key), body: JSON.stringify({ first_name: `W${i}`, last_name: "Load" }) });
        expect(res.status).toBe(201);
        acknowledged.push(((await res.json()) as { uri: string }).uri.split("/")[3]!);
      }
    })();
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 50));

    // Two older backups and another file in the folder: --keep 2 removes the oldest backup only.
    mkdirSync(dir, { recursive: true });
    for (const f of ["records-2020-01-01T00-00-00Z.db", "records-2020-01-02T00-00-00Z.db", "notes.txt"]) writeFileSync(join(dir, f), "old");
    const before = new Set(acknowledged);
    const backup = await run(["backup", "--to", dir, "--db", db, "--keep", "2"]);
    const duringBackup = acknowledged.length - before.size;
    writing = false;
    await loop;
    expect(backup.stderr).toEqual([]);
    expect(backup.code).toBe(0);
    // The loop kept writing while the command ran (it starts, copies and verifies in that time).
    expect(duringBackup).toBeGreaterThan(0);
    const line = backup.stdout.join("\n");
    expect(line).toMatch(/^records-service backup: .*records-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db \([\d.]+ [KM]B\), integrity ok, records per flock demo \d+; removed 1 older: records-2020-01-01T00-00-00Z\.db$/);
    const file = join(dir, /(records-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db)/.exec(line)![1]!);
    expect(readdirSync(dir).sort()).toEqual(["notes.txt", "records-2020-01-02T00-00-00Z.db", file.slice(dir.length + 1)].sort());

    // Restoring over the live database is refused without --force, and changes nothing.
    const refused = await run(["restore", file, "--db", db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toHaveLength(1);
    expect(refused.stderr[0]).toMatch(new RegExp(`^records-service restore: ${db.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not empty \\(1 flock\\(s\\), 1 user\\(s\\), \\d+ record\\(s\\)\\); add --force to overwrite it with `));
    const live = await fetch(`${url}/api/v1/demo/person/?page_size=1`, { headers: headers(key) });
    expect(((await live.json()) as { total: number }).total).toBe(acknowledged.length);
    server.child.kill("SIGTERM");
    expect(await server.exited(WAIT)).toBe(0);

    // Restored into a new file, it serves: every create acknowledged before the backup began is there.
    const target = join(tmp, "restored", "records.db");
    const restored = await run(["restore", file, "--db", target]);
    expect(restored.stderr).toEqual([]);
    expect(restored.code).toBe(0);
    expect(restored.stdout.join("\n")).toMatch(/^records-service restore: .* restored into .*records\.db, integrity ok, records per flock demo \d+$/);
    const again = await serve(target);
    const key2 = await login(again.url, username, password);
    const listed = await fetch(`${again.url}/api/v1/demo/person/?page_size=1500`, { headers: headers(key2) });
    expect(listed.status).toBe(200);
    const ids = new Set(((await listed.json()) as { results: { id: string }[] }).results.map((r) => r.id));
    const missing = [...before].filter((id) => !ids.has(id));
    expect(missing).toEqual([]);
    // Nothing that was never acknowledged appears either.
    expect([...ids].filter((id) => !acknowledged.includes(id))).toEqual([]);
    again.p.child.kill("SIGTERM");
    expect(await again.p.exited(WAIT)).toBe(0);
  });

  it("does not pretend for PostgreSQL: exit 2 with the pg_dump and pg_restore commands, the password hidden", async () => {
    const url = "postgres://records:s3cret@db.internal:5432/records";
    const b = await run(["backup", "--to", join(tmp, "pg"), "--db", url]);
    expect(b.code).toBe(2);
    const text = b.stderr.join("\n");
    expect(text).toContain("it does not back up PostgreSQL");
    expect(text).toMatch(/pg_dump --format=custom --file=\S+records-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.dump postgres:\/\/records@db\.internal:5432\/records$/m);
    expect(text).toContain("pg_restore");
    expect(text).not.toContain("s3cret");
    expect(existsSync(join(tmp, "pg"))).toBe(false);
    const r = await run(["restore", "records.dump", "--db", url]);
    expect(r.code).toBe(2);
    expect(r.stderr.join("\n")).toContain("pg_restore --clean --if-exists --no-owner --dbname=postgres://records@db.internal:5432/records records.dump");
  });
});
