import type { OutboxJob } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "./args.js";
import { formatJobs } from "./jobs.js";

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
    const lines = formatJobs([base, { ...base, status: "done", lastError: null, lastStatus: 200, trigger: "login" }]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^CREATED\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+LAST\s+FLOCK\s+TRIGGER\s+ACTION\s+DELIVERY\s+LAST ERROR$/);
    expect(lines[1]).toContain("2026-01-15T10:02:15");
    expect(lines[1]).toMatch(/503 .*HTTP 503: busy$/);
    expect(lines[2]).toMatch(/done\s+2\s+-\s+200/);
    expect(lines[0]!.indexOf("TRIGGER")).toBe(lines[1]!.indexOf("contact_created"));
  });
});
