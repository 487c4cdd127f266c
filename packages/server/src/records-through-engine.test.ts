/**
 * The server reads and writes records only through the engine (issue 23 point 1): no
 * module calls a record member of Storage (its reads, `apply`, `deleteRecords`) but the
 * few that open or own the database themselves, listed here with why. Routes and the
 * gateway go further: they hold no Storage at all. Their engine's context has none (a
 * type check, so `npm run typecheck` fails on a route that reaches for it), and their
 * sources never name it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { RecordEngine, Storage } from "@records-service/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { RouteDeps } from "./routes/bind.js";

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

/** Gateway modules that run as tasks in the task worker, over a task's whole context. */
const TASK_MODULES: Readonly<Record<string, string>> = {
  "gateway/segments/delete-task.ts": "the segment delete task, run by the task worker",
  "gateway/segments/export-task.ts": "the segment XLSX export task, run by the task worker",
  "gateway/segments/walk.ts": "taskReader: those tasks' walks read through their context's reader",
};

/** Reaching Storage through an engine's context: `context.storage`, `ctx.storage`, `{ storage } = …context`. */
const STORAGE_REACH = /\b(context|ctx)\??\.storage\b|\{[^}]*\bstorage\b[^}]*\}\s*=\s*[\w.]*\b(context|ctx)\b/;
/** Naming the whole engine or its context: what routes are given instead is `RouteEngine`. */
const WHOLE_ENGINE = /\b(RecordEngine|EngineContext)\b/;

/** The names of `T`'s members whose type is the whole Storage. */
type WholeStorageMembers<T> = { [K in keyof T]-?: T[K] extends Storage ? K : never }[keyof T];

describe("routes and the gateway hold no Storage", () => {
  it("RouteDeps: the engine's context has no storage, nor has an engine acting for someone, and no dependency is a whole Storage", () => {
    expectTypeOf<RouteDeps["engine"]["context"]>().not.toHaveProperty("storage");
    expectTypeOf<ReturnType<RouteDeps["engine"]["withAttribution"]>["context"]>().not.toHaveProperty("storage");
    expectTypeOf<WholeStorageMembers<RouteDeps>>().toEqualTypeOf<never>();
  });

  it("the type checks would catch the whole engine or a whole Storage", () => {
    expectTypeOf<RecordEngine["context"]>().toHaveProperty("storage");
    expectTypeOf<WholeStorageMembers<{ engine: RecordEngine; storage: Storage }>>().toEqualTypeOf<"storage">();
  });

  it("no route or gateway module reaches Storage through a context, or names the whole engine (but the tasks)", () => {
    const offenders = ["routes", "gateway"]
      .flatMap((dir) => _sources(join(SRC, dir)))
      .flatMap((file) => {
        const at = relative(SRC, file);
        const rule = at in TASK_MODULES ? STORAGE_REACH : new RegExp(`${STORAGE_REACH.source}|${WHOLE_ENGINE.source}`);
        return readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line: line.trim(), at: `${at}:${i + 1}` }))
          .filter(({ line }) => !line.startsWith("*") && !line.startsWith("//") && rule.test(line))
          .map(({ at, line }) => `${at}: ${line}`);
      });
    expect(offenders).toEqual([]);
  });

  it("catches the ways a route reached Storage", () => {
    expect(STORAGE_REACH.test("const { storage, clock } = engine.context;")).toBe(true);
    expect(STORAGE_REACH.test("await engine.context.storage.getFlock(flock)")).toBe(true);
    expect(STORAGE_REACH.test("return ctx.storage.listJobs(filter);")).toBe(true);
    expect(STORAGE_REACH.test("const { clock } = engine.context;")).toBe(false);
    expect(WHOLE_ENGINE.test("export function triggerRoutes(engine: RecordEngine) {")).toBe(true);
    expect(WHOLE_ENGINE.test("export function triggerRoutes(engine: RouteEngine, guards: RouteGuards) {")).toBe(false);
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
