/**
 * End to end through the real CLI: the applied configuration lives in the database. A
 * server started with a config and restarted without it still delivers (jobs queued
 * before the restart included) and says in one line which configuration it runs; a
 * trigger removed by `config apply` while jobs are due holds them (`jobs --status held`),
 * putting it back delivers each once; two `serve` processes on one file take up a change
 * without restart; `config show` prints the configuration with its secrets redacted;
 * `import --events` warns when no active trigger would queue its events.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPerson, pollUntil, startStatusReceiver, writeConfigFile } from "./config-helpers.js";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

const SECRET = "e2e-config-db-secret-0123456789";
const PASSWORD = "pw-for-config-e2e";
const tmp = mkdtempSync(join(tmpdir(), "records-config-db-"));
let n = 0;
const receivers: Server[] = [];
/** Waits for a CLI start or end: generous, since a shared machine may take many seconds to start one. */
const WAIT_MS = 90_000;

async function runCliToEnd(args: string[]): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  const p = startCli(args);
  const code = await p.exited(WAIT_MS);
  return { code, stdout: p.stdout, stderr: p.stderr };
}

afterAll(() => {
  killAll();
  for (const r of receivers) r.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A loopback receiver answering `status.now` (200 at first); records each request's delivery id and the status answered. */
async function receiver() {
  const hook = await startStatusReceiver(200);
  receivers.push(hook.server);
  return hook;
}

function writeConfig(hook: string | undefined, extra: Record<string, unknown> = {}): string {
  return writeConfigFile(tmp, {
    secret: SECRET,
    flocks: [{ identifier: "demo", name: "Demo" }],
    users: [{ username: "ada@example.org", password: PASSWORD, flocks: ["*"] }],
    triggers: hook ? [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hook }] : [],
    webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 150, retryWindowHours: 1 },
    ...extra,
  });
}

async function serve(db: string, config?: string): Promise<{ p: CliProcess; url: string }> {
  const p = startCli(["serve", "--db", db, "--port", "0", "--quiet", ...(config ? ["--config", config] : [])]);
  const line = await p.line(/listening on http:\/\//, WAIT_MS);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function stop(p: CliProcess): Promise<void> {
  p.child.kill("SIGTERM");
  expect(await p.exited(WAIT_MS)).toBe(0);
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada@example.org", password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { api_key: string }).api_key;
}

async function triggerNames(url: string, key: string): Promise<string[]> {
  const res = await fetch(`${url}/api/v1/demo/triggers/`, { headers: { authorization: `Bearer ${key}`, application: "e2e/config-db/1" } });
  expect(res.status).toBe(200);
  return Object.keys((await res.json()) as object);
}

const until = <T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false) => pollUntil(what, fn, WAIT_MS);

/** `records-service jobs --status S` rows (header left out). */
async function jobRows(db: string, status: string): Promise<string[]> {
  const r = await runCliToEnd(["jobs", "--db", db, "--status", status]);
  expect(r.code).toBe(0);
  return r.stdout.filter((l) => !l.startsWith("CREATED") && !l.startsWith("lease ") && l !== "no jobs");
}

/** Deliveries each answered 200 exactly once. */
function deliveredOnce(got: { id: string; status: number }[], count: number): boolean {
  const ok = got.filter((g) => g.status === 200).map((g) => g.id);
  return ok.length === count && new Set(ok).size === count;
}

// One at a time: each test runs several CLI processes, and starts and logins hash at the
// shipped scrypt cost (N = 2^17).
describe("the applied configuration lives in the database (CLI)", { timeout: 300_000 }, () => {
  it("a restart without --config runs with the last applied configuration, says so once, and delivers", async () => {
    const hook = await receiver();
    hook.status.now = 503;
    const db = join(tmp, `db-${++n}`, "records.db");
    const first = await serve(db, writeConfig(hook.url));
    expect(first.p.stdout).toContainEqual(expect.stringMatching(/^config: applied .*\(revision 1, from .*config-\d+\.json\)/));
    await createPerson(first.url, await login(first.url), "Before", "e2e/config-db/1");
    await until("the job attempted", () => hook.got.length > 0);
    await stop(first.p);

    hook.status.now = 200;
    const second = await serve(db);
    const said = second.p.stdout.filter((l) => l.startsWith("config: "));
    expect(said).toEqual([expect.stringMatching(/^config: using the configuration applied \S+Z \(revision 1, from .*config-\d+\.json; no --config given\)$/)]);
    const key = await login(second.url);
    expect(await triggerNames(second.url, key)).toEqual(["contact_created"]);
    await createPerson(second.url, key, "After", "e2e/config-db/1");
    await until("both delivered once", () => deliveredOnce(hook.got, 2));
    expect(await jobRows(db, "dead")).toEqual([]);
    await stop(second.p);
  });

  it("a trigger removed while jobs are due holds them; put back, each is delivered once", async () => {
    const hook = await receiver();
    hook.status.now = 503;
    const db = join(tmp, `db-${++n}`, "records.db");
    const withTrigger = writeConfig(hook.url);
    const { p, url } = await serve(db, withTrigger);
    const key = await login(url);
    await createPerson(url, key, "One", "e2e/config-db/1");
    await createPerson(url, key, "Two", "e2e/config-db/1");
    await until("both jobs attempted", () => new Set(hook.got.map((g) => g.id)).size === 2);

    const removed = await runCliToEnd(["config", "apply", writeConfig(undefined), "--db", db]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toEqual([expect.stringMatching(/^config: applied revision 2 to /)]);
    const held = await until("both jobs held", async () => {
      const rows = await jobRows(db, "held");
      return rows.length === 2 && rows;
    });
    for (const row of held) expect(row).toMatch(/held\s.*held: trigger contact_created with action send-json-webhook is not configured or not active/);
    expect(await jobRows(db, "dead")).toEqual([]);
    const attempts = hook.got.length;
    await new Promise((r) => setTimeout(r, 800));
    expect(hook.got.length).toBe(attempts);

    hook.status.now = 200;
    const back = await runCliToEnd(["config", "apply", withTrigger, "--db", db]);
    expect(back.code).toBe(0);
    await until("both delivered once", () => deliveredOnce(hook.got, 2));
    await p.line(/^outbox: 2 held job\(s\) resumed/, WAIT_MS);
    await new Promise((r) => setTimeout(r, 500));
    expect(deliveredOnce(hook.got, 2)).toBe(true);
    expect(await jobRows(db, "held")).toEqual([]);
    // The same file again changes nothing.
    const same = await runCliToEnd(["config", "apply", withTrigger, "--db", db]);
    expect(same.stdout).toEqual([expect.stringMatching(/^config: unchanged, revision 3 /)]);
    await stop(p);
  });

  it("two processes on one file take up a change applied by the CLI without restart", async () => {
    const hook = await receiver();
    const db = join(tmp, `db-${++n}`, "records.db");
    const a = await serve(db, writeConfig(undefined));
    const b = await serve(db);
    const [keyA, keyB] = [await login(a.url), await login(b.url)];
    expect(await triggerNames(a.url, keyA)).toEqual([]);
    expect(await triggerNames(b.url, keyB)).toEqual([]);
    const applied = await runCliToEnd(["config", "apply", writeConfig(hook.url), "--db", db]);
    expect(applied.code).toBe(0);
    for (const [url, key] of [[a.url, keyA], [b.url, keyB]] as const) {
      await until(`${url} has the trigger`, async () => (await triggerNames(url, key)).length === 1);
    }
    // Each process queues and delivers for the trigger it took up.
    await createPerson(a.url, keyA, "A", "e2e/config-db/1");
    await createPerson(b.url, keyB, "B", "e2e/config-db/1");
    await until("both delivered once", () => deliveredOnce(hook.got, 2));
    await Promise.all([stop(a.p), stop(b.p)]);
  });

  it("config show prints the applied configuration with its secrets redacted; none applied is exit 1", async () => {
    const db = join(tmp, `db-${++n}`, "records.db");
    const none = await runCliToEnd(["config", "show", "--db", db]);
    expect(none.code).toBe(1); // no database yet
    const file = writeConfig("https://hook-user:hook-pw@hooks.example.org/in?token=t0ken", {
      mail: { smtp: "smtp://mailer:smtp-pw@127.0.0.1:2525", from: "records@example.org" },
      webhooks: {},
    });
    expect((await runCliToEnd(["config", "apply", file, "--db", db])).code).toBe(0);
    const shown = await runCliToEnd(["config", "show", "--db", db]);
    expect(shown.code).toBe(0);
    const text = shown.stdout.join("\n");
    for (const secret of [SECRET, PASSWORD, "smtp-pw", "hook-pw", "t0ken"]) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      revision: 1,
      source: file,
      config: {
        secret: "[redacted]",
        flocks: [{ identifier: "demo", name: "Demo" }],
        users: [{ username: "ada@example.org", password: "[redacted]", flocks: ["*"] }],
        triggers: [{ trigger: "contact_created", url: "https://***@hooks.example.org/in?***" }],
        mail: { smtp: "smtp://[redacted]@127.0.0.1:2525", from: "records@example.org" },
      },
    });
    const bad = join(tmp, `bad-${++n}.json`);
    writeFileSync(bad, JSON.stringify({ flocks: [{ identifier: "demo", nmae: "x" }] }));
    const refused = await runCliToEnd(["config", "apply", bad, "--db", db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.join("\n")).toContain("nmae");
    expect(JSON.parse((await runCliToEnd(["config", "show", "--db", db])).stdout.join("\n")).revision).toBe(1);
  });

  it("import --events warns, one line per flock and event, when no active trigger would queue them", async () => {
    const db = join(tmp, `db-${++n}`, "records.db");
    expect((await runCliToEnd(["config", "apply", writeConfig(undefined), "--db", db])).code).toBe(0);
    const rows = join(tmp, `people-${++n}.ndjson`);
    writeFileSync(rows, `${JSON.stringify({ first_name: "Ada", last_name: "One" })}\n${JSON.stringify({ first_name: "Bob", last_name: "Two" })}\n`);
    const r = await runCliToEnd(["import", rows, "--flock", "demo", "--events", "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stderr.filter((l) => l.startsWith("import: warning:"))).toEqual([
      expect.stringMatching(/^import: warning: flock demo has no active trigger for contact_created: 2 contact_created event\(s\) recorded, no action queued/),
    ]);
    // With the trigger applied, the same import queues its jobs and warns of nothing.
    expect((await runCliToEnd(["config", "apply", writeConfig("https://hooks.example.org/in"), "--db", db])).code).toBe(0);
    const more = join(tmp, `people-${++n}.ndjson`);
    writeFileSync(more, `${JSON.stringify({ first_name: "Cy", last_name: "Three" })}\n`);
    const again = await runCliToEnd(["import", more, "--flock", "demo", "--events", "--db", db]);
    expect(again.code).toBe(0);
    expect(again.stderr.filter((l) => l.startsWith("import: warning:"))).toEqual([]);
    expect(await jobRows(db, "pending")).toHaveLength(1);
  });
});
