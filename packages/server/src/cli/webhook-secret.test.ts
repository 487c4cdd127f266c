import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { applyConfig } from "../config/apply.js";
import { formatWebhookKey, webhookKey } from "../config/keys.js";
import { FLAG_DEFAULTS } from "../config/schema.js";
import { parseCommand, UsageError } from "./args.js";
import type { CliIo } from "./io.js";
import { runCli } from "./main.js";
import { USAGE } from "./usage.js";

function captureIo(): CliIo & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return { outLines, errLines, out: (l) => outLines.push(l), err: (l) => errLines.push(l), env: {}, stopRequested: () => new Promise(() => {}) };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "records-webhook-secret-"));
  dirs.push(dir);
  return dir;
}

/** A database with flocks demo and club and the given secret, as `serve --config` leaves it. */
async function database(secret: string): Promise<string> {
  const db = join(tempDir(), "records.db");
  const storage = await createSqliteStorage({ path: db });
  await applyConfig(storage, systemClock, parseConfig({ secret, flocks: [{ identifier: "demo" }, { identifier: "club" }] }));
  await storage.close();
  return db;
}

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const io = captureIo();
  const code = await runCli(argv, io);
  return { code, out: io.outLines, err: io.errLines };
}

const SECRET = "stored-secret-0123456789";

describe("records-service webhook-secret: command line", () => {
  it.each([
    { argv: ["webhook-secret", "demo"], expected: { kind: "webhook-secret", flock: "demo", db: FLAG_DEFAULTS.db, config: undefined } },
    { argv: ["webhook-secret", "demo", "--db", "x.db", "--config", "c.json"], expected: { kind: "webhook-secret", flock: "demo", db: "x.db", config: "c.json" } },
  ])("parses $argv", ({ argv, expected }) => {
    expect(parseCommand(argv, {})).toEqual(expected);
  });

  it("has help", () => {
    expect(parseCommand(["webhook-secret", "--help"], {})).toEqual({ kind: "help", text: USAGE["webhook-secret"] });
    expect(USAGE.main).toContain("webhook-secret FLOCK [--db PATH] [--config FILE]");
  });

  it.each([
    [["webhook-secret"]],
    [["webhook-secret", "Demo"]],
    [["webhook-secret", "demo", "club"]],
    [["webhook-secret", "demo", "--secret", "x"]],
    [["webhook-secret", "demo", "--config", ""]],
  ])("refuses %j with exit 2 and one line", async (argv) => {
    expect(() => parseCommand(argv, {})).toThrow(UsageError);
    const r = await run(argv);
    expect(r).toMatchObject({ code: 2, out: [] });
    expect(r.err).toHaveLength(1);
  });
});

describe("records-service webhook-secret", () => {
  it("prints the flock's key, derived from the database's secret, and nothing else", async () => {
    const db = await database(SECRET);
    const demo = await run(["webhook-secret", "demo", "--db", db]);
    expect(demo).toEqual({ code: 0, out: [formatWebhookKey(webhookKey(SECRET, "demo"))], err: [] });
    expect(demo.out[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const club = await run(["webhook-secret", "club", "--db", db]);
    expect(club.out[0]).not.toBe(demo.out[0]);
  });

  it("an unknown flock is one line on stderr and exit 1", async () => {
    const db = await database(SECRET);
    expect(await run(["webhook-secret", "ghost", "--db", db])).toEqual({
      code: 1,
      out: [],
      err: [`records-service webhook-secret: there is no flock "ghost" (in ${db})`],
    });
  });

  it("a missing database is exit 1 (nothing is created)", async () => {
    const db = join(tempDir(), "none.db");
    expect(await run(["webhook-secret", "demo", "--db", db])).toEqual({ code: 1, out: [], err: [`records-service: no database at ${db} (check --db)`] });
  });

  it("with --config, the config's secret wins (it replaces the stored one at the next start): rotation changes the key", async () => {
    const db = await database(SECRET);
    const before = (await run(["webhook-secret", "demo", "--db", db])).out[0];
    const config = join(tempDir(), "config.json");
    writeFileSync(config, JSON.stringify({ secret: "rotated-secret-0123456789", flocks: [{ identifier: "demo" }] }));
    const after = await run(["webhook-secret", "demo", "--db", db, "--config", config]);
    expect(after).toEqual({ code: 0, out: [formatWebhookKey(webhookKey("rotated-secret-0123456789", "demo"))], err: [] });
    expect(after.out[0]).not.toBe(before);
    // The server, once started with that config, signs with the same key.
    const storage = await createSqliteStorage({ path: db });
    const applied = await applyConfig(storage, systemClock, parseConfig({ secret: "rotated-secret-0123456789" }));
    await storage.close();
    expect(formatWebhookKey(webhookKey(applied.secret, "demo"))).toBe(after.out[0]);
  });

  it("with a config naming the secret and the flock, works before the first start; a config without a secret uses the database's", async () => {
    const dir = tempDir();
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ secret: "config-secret-0123456789", flocks: [{ identifier: "demo" }] }));
    expect((await run(["webhook-secret", "demo", "--db", join(dir, "none.db"), "--config", config])).out).toEqual([
      formatWebhookKey(webhookKey("config-secret-0123456789", "demo")),
    ]);
    const db = await database(SECRET);
    writeFileSync(config, JSON.stringify({ flocks: [{ identifier: "demo" }] }));
    expect((await run(["webhook-secret", "demo", "--db", db, "--config", config])).out).toEqual([formatWebhookKey(webhookKey(SECRET, "demo"))]);
  });

  it("a bad config file is exit 1 naming the problem", async () => {
    const config = join(tempDir(), "config.json");
    writeFileSync(config, JSON.stringify({ secret: "short" }));
    const r = await run(["webhook-secret", "demo", "--config", config]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['records-service: config: "secret" must be at least 16 characters']);
  });
});
