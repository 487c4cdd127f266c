import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutboxJob } from "@records-service/core";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "./args.js";
import type { CliIo } from "./io.js";
import { formatJobs, formatLeases } from "./jobs.js";
import { runCli } from "./main.js";

function captureIo(): CliIo & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return { outLines, errLines, out: (l) => outLines.push(l), err: (l) => errLines.push(l), env: {}, stopRequested: () => new Promise(() => {}) };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("read-only commands on a database that does not exist", () => {
  it.each([
    [["jobs"]],
    [["jobs", "--status", "dead"]],
    [["card-url", "demo", "0123456789abcdef01234567"]],
  ])("%j fails with one line on stderr, exit 1, and creates nothing", async (argv) => {
    const dir = mkdtempSync(join(tmpdir(), "records-cli-missing-"));
    dirs.push(dir);
    const db = join(dir, "nested", "nonexistent.db");
    const io = captureIo();
    expect(await runCli([...argv, "--db", db], io)).toBe(1);
    expect(io.outLines).toEqual([]);
    expect(io.errLines).toEqual([`records-service: no database at ${db} (check --db)`]);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(join(dir, "nested"))).toBe(false);
  });

  it("flock add still creates a new database, which jobs then reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-cli-missing-"));
    dirs.push(dir);
    const db = join(dir, "records.db");
    expect(await runCli(["flock", "add", "demo", "--db", db], captureIo())).toBe(0);
    const io = captureIo();
    expect(await runCli(["jobs", "--db", db], io)).toBe(0);
    expect(io.outLines).toEqual(["no jobs"]);
  });
});

describe("records-service jobs: command line", () => {
  it.each([
    { argv: ["jobs"], expected: { kind: "jobs", db: "./data/records.db", status: undefined, flock: undefined, limit: 50 } },
    { argv: ["jobs", "--db", "x.db", "--status", "dead", "--flock", "demo", "--limit", "5"], expected: { kind: "jobs", db: "x.db", status: "dead", flock: "demo", limit: 5 } },
  ])("$argv", ({ argv, expected }) => {
    expect(parseCommand(argv, {})).toEqual(expected);
  });

  it.each([
    { argv: ["jobs", "--status", "failed"], message: 'bad --status "failed"' },
    { argv: ["jobs", "--limit", "0"], message: "bad --limit" },
    { argv: ["jobs", "--limit", "1001"], message: "bad --limit" },
    { argv: ["jobs", "--flock", "Bad Flock"], message: "bad flock identifier" },
    { argv: ["jobs", "--bogus"], message: "--bogus" },
    { argv: ["jobs", "extra"], message: 'unexpected argument "extra"' },
  ])("refuses $argv", ({ argv, message }) => {
    expect(() => parseCommand(argv, {})).toThrow(UsageError);
    expect(() => parseCommand(argv, {})).toThrow(message);
  });

  it("has help", () => {
    expect(parseCommand(["jobs", "--help"], {})).toMatchObject({ kind: "help", text: expect.stringContaining("records-service jobs") });
  });
});

describe("formatJobs", () => {
  it("aligns the columns and shows the next attempt only while pending", () => {
    const base: OutboxJob = {
      id: "000000000000000000000001",
      flock: "demo",
      dataEventId: "000000000000000000000002",
      trigger: "contact_created",
      action: "send-json-webhook",
      deliveryId: "000000000000000000000001",
      status: "pending",
      attempts: 2,
      nextAttemptAt: "2026-01-15T10:02:15.000000",
      firstAttemptAt: "2026-01-15T10:00:00.000000",
      lastError: "HTTP 503:\nbusy",
      lastStatus: 503,
      body: null,
      created: "2026-01-15T10:00:00.000000",
    };
    const lines = formatJobs([base, { ...base, status: "done", lastError: null, lastStatus: 200, trigger: "login", claimedUntil: "2026-01-15T10:03:00.000000" }]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^CREATED\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+LAST\s+FLOCK\s+TRIGGER\s+ACTION\s+DELIVERY\s+CLAIMED UNTIL\s+LAST ERROR$/);
    expect(lines[1]).toContain("2026-01-15T10:02:15");
    expect(lines[1]).toMatch(/503 .*HTTP 503: busy$/);
    expect(lines[2]).toMatch(/done\s+2\s+-\s+200/);
    expect(lines[0]!.indexOf("TRIGGER")).toBe(lines[1]!.indexOf("contact_created"));
    expect(lines[2]).toContain("000000000000000000000001  2026-01-15T10:03:00");
    expect(lines[1]).toMatch(/000000000000000000000001  -\s+HTTP 503/);
  });

  it("lists the leases held, with holder and lapse time", () => {
    expect(formatLeases([{ name: "scheduler", owner: "ab12", expiresAt: Date.UTC(2026, 0, 15, 10, 1, 0) }])).toEqual([
      "lease scheduler held by ab12 until 2026-01-15T10:01:00",
    ]);
    expect(formatLeases([])).toEqual([]);
  });
});
