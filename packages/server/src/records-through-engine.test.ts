/**
 * The server reads and writes records only through the engine (issue 23 point 1): no
 * module calls a record member of Storage (its reads, `apply`, `deleteRecords`) but the
 * few that open or own the database themselves, listed here with why.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL(".", import.meta.url).pathname;

/** Modules that work on a Storage they open or own, not on the engine's. */
const OWNERS: Readonly<Record<string, string>> = {
  "bulk-io/export-records.ts": "records-service export opens the database without a server's configuration",
  "derived/card-url.ts": "records-service card-url opens the database itself",
  "clock/existing-data.ts": "the manual clock's start-up guard, run on the database the process opens",
  "runtime.ts": "the process that opens the database (--demo-data's check)",
  "workers/outbox-attempt.ts": "the outbox's own data events, tagged back with JobQueue.finishJob",
};

const RECORD_MEMBERS = /\bstorage\??\.(getRecord|getRecords|getDisplayValues|listRecords|listReferencing|scanRecords|listFieldValues|countFieldValues|summarizeTypes|getFile|apply|deleteRecords)\b/;

describe("records through the engine", () => {
  it("no server module calls Storage's record members except those that own their database", () => {
    const offenders = _sources(SRC)
      .filter((file) => !(relative(SRC, file) in OWNERS))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line: line.trim(), at: `${relative(SRC, file)}:${i + 1}` }))
          .filter(({ line }) => !line.startsWith("*") && !line.startsWith("//") && RECORD_MEMBERS.test(line))
          .map(({ at, line }) => `${at}: ${line}`),
      );
    expect(offenders).toEqual([]);
  });

  it("catches a record read on Storage", () => {
    expect(RECORD_MEMBERS.test("const r = await engine.context.storage.getRecord(flock, type, id);")).toBe(true);
    expect(RECORD_MEMBERS.test("const r = await engine.read.getRecord(flock, type, id);")).toBe(false);
  });
});

// --- internal ---

function _sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return _sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}
