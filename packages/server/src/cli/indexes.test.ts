import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FieldIndexView } from "@records-service/core";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "./args.js";
import { formatIndexes, indexLines, statusText } from "./indexes.js";
import type { CliIo } from "./io.js";
import { runCli } from "./main.js";
import { USAGE } from "./usage.js";

function captureIo(): CliIo & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return { outLines, errLines, out: (l) => outLines.push(l), err: (l) => errLines.push(l), env: {}, stopRequested: () => new Promise(() => {}) };
}

const view = (over: Partial<FieldIndexView>): FieldIndexView => ({ type: "person", field: "email", status: "declared", source: "default", flock: "demo", progress: 1, ...over });

describe("indexes: the command line", () => {
  it("lists every flock, one flock, or makes one change in a flock", () => {
    expect(parseCommand(["indexes"], {})).toEqual({ kind: "indexes", db: "./data/records.db", flock: undefined, change: undefined });
    expect(parseCommand(["indexes", "--flock", "demo", "--db", ":memory:"], {})).toEqual({ kind: "indexes", db: ":memory:", flock: "demo", change: undefined });
    expect(parseCommand(["indexes", "--flock", "demo", "--add", "person.shoe_size"], {})).toMatchObject({ change: { op: "add", type: "person", field: "shoe_size" } });
    expect(parseCommand(["indexes", "--flock", "demo", "--drop=member.Nick_Name2"], {})).toMatchObject({ change: { op: "drop", type: "member", field: "Nick_Name2" } });
    expect(parseCommand(["indexes", "--reset", "volunteer._x", "--flock", "demo"], {})).toMatchObject({ change: { op: "reset", type: "volunteer", field: "_x" } });
    expect(parseCommand(["indexes", "--help"], {})).toEqual({ kind: "help", text: USAGE.indexes });
    expect(USAGE.main).toContain(USAGE.indexes);
  });

  it.each([
    { argv: ["indexes", "--add", "person.x"], message: "records-service indexes --add needs --flock F: an index is added, dropped or reset in one flock" },
    { argv: ["indexes", "--flock", "demo", "--add", "person.x", "--drop", "person.y"], message: "records-service indexes: --add and --drop cannot be given together: one change at a time" },
    { argv: ["indexes", "--flock", "Bad Flock"], message: 'bad flock identifier "Bad Flock" in --flock' },
    { argv: ["indexes", "--flock", "demo", "--add", "person"], message: 'bad value: --add "person": expected TYPE.FIELD such as person.shoe_size (a resource type name, then a data field name: letters, digits and _)' },
    { argv: ["indexes", "--flock", "demo", "--drop", "Person.x"], message: expect.stringContaining('bad value: --drop "Person.x"') },
    { argv: ["indexes", "--flock", "demo", "--reset", "person.a.b"], message: expect.stringContaining('bad value: --reset "person.a.b"') },
    { argv: ["indexes", "--flock", "demo", "--add", "person.9lives"], message: expect.stringContaining("expected TYPE.FIELD") },
    { argv: ["indexes", "--flock", "demo", "--add", ".x"], message: expect.stringContaining("expected TYPE.FIELD") },
    { argv: ["indexes", "--flock"], message: expect.stringContaining("records-service indexes: Option '--flock <value>' argument missing") },
    { argv: ["indexes", "--type", "person"], message: expect.stringContaining("records-service indexes: Unknown option '--type'") },
    { argv: ["indexes", "demo"], message: 'records-service indexes: unexpected argument "demo"' },
  ])("$argv is a usage error", ({ argv, message }) => {
    let error: unknown;
    try {
      parseCommand(argv, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toEqual(message);
  });

  it("a bad command line exits 2 with one line on stderr", async () => {
    const io = captureIo();
    expect(await runCli(["indexes", "--drop", "person.email"], io)).toBe(2);
    expect(io.errLines).toHaveLength(1);
    expect(io.outLines).toEqual([]);
  });
});

describe("indexes: the table", () => {
  it("aligns the columns and shows how far a back-fill or a removal is", () => {
    const lines = formatIndexes([
      { flock: "demo", view: view({}) },
      { flock: "demo", view: view({ field: "shoe_size", status: "building", source: "operator", progress: 0.426 }) },
      { flock: "*", view: view({ type: "membership", field: "region", source: "config", flock: "*" }) },
      { flock: "demo", view: view({ field: "telephone", status: "dropped", source: "operator", progress: 0.4 }) },
      { flock: "demo", view: view({ field: "postal_code", status: "dropped", source: "operator", progress: 1 }) },
      { flock: "demo", view: view({ field: "nickname", status: "earned", source: "demand" }) },
    ]);
    expect(lines).toEqual([
      "FLOCK  TYPE        FIELD        STATUS                SOURCE",
      "demo   person      email        declared              default",
      "demo   person      shoe_size    building 42%          operator",
      "*      membership  region       declared              config",
      "demo   person      telephone    dropped, 40% removed  operator",
      "demo   person      postal_code  dropped               operator",
      "demo   person      nickname     earned                demand",
    ]);
  });

  it("rounds progress down: 100% only when done", () => {
    expect(statusText({ status: "building", progress: 0.999 })).toBe("building 99%");
    expect(statusText({ status: "building", progress: 0 })).toBe("building 0%");
    expect(statusText({ status: "building", progress: 1 })).toBe("building 100%");
    expect(statusText({ status: "earned", progress: 1 })).toBe("earned");
  });

  it("lists a row that holds for every flock once, as *", () => {
    const every = view({ field: "region", source: "config", flock: "*" });
    const lines = indexLines([
      { flock: "alpha", views: [view({ flock: "alpha" }), every] },
      { flock: "beta", views: [view({ flock: "beta" }), every, view({ field: "region", source: "operator", status: "dropped", flock: "beta" })] },
    ]);
    expect(lines.map((l) => `${l.flock} ${l.view.field} ${l.view.status}`)).toEqual(["alpha email declared", "* region declared", "beta email declared", "beta region dropped"]);
  });
});

describe("indexes on a SQLite file", () => {
  const dir = mkdtempSync(join(tmpdir(), "records-cli-indexes-"));
  const db = join(dir, "records.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...argv: string[]) {
    const io = captureIo();
    const code = await runCli([...argv, "--db", db], io);
    return { code, out: io.outLines, err: io.errLines };
  }

  it("lists, adds, drops and resets; refusals exit 1 with the service's words", async () => {
    expect((await run("flock", "add", "alpha")).code).toBe(0);
    expect((await run("flock", "add", "beta")).code).toBe(0);

    const all = await run("indexes");
    expect(all.code).toBe(0);
    expect(all.out[0]).toMatch(/^FLOCK\s+TYPE\s+FIELD\s+STATUS\s+SOURCE$/);
    expect(all.out).toContainEqual(expect.stringMatching(/^alpha\s+person\s+email\s+declared\s+default$/));
    expect(all.out).toContainEqual(expect.stringMatching(/^beta\s+person\s+email\s+declared\s+default$/));

    const added = await run("indexes", "--flock", "alpha", "--add", "person.shoe_size");
    expect(added).toMatchObject({ code: 0, err: [] });
    expect(added.out[1]).toMatch(/^alpha\s+person\s+shoe_size\s+building 0%\s+operator$/);
    const alpha = await run("indexes", "--flock", "alpha");
    expect(alpha.out).toContainEqual(expect.stringMatching(/^alpha\s+person\s+shoe_size\s+building 0%\s+operator$/));
    expect((await run("indexes", "--flock", "beta")).out.join("\n")).not.toContain("shoe_size");

    const dropped = await run("indexes", "--flock", "alpha", "--drop", "person.last_name");
    expect(dropped.out[1]).toMatch(/^alpha\s+person\s+last_name\s+dropped(, 0% removed)?\s+operator$/);

    const reset = await run("indexes", "--flock", "alpha", "--reset", "person.last_name");
    // A dropped default is built again (by the index worker) before the defaults rule it.
    expect(reset.out[1]).toMatch(/^alpha\s+person\s+last_name\s+building 0%\s+default$/);
    const resetAdded = await run("indexes", "--flock", "alpha", "--reset", "person.shoe_size");
    expect(resetAdded.out).toEqual(["person.shoe_size in alpha: not indexed (the defaults do not index it; filters on it scan the records)"]);
    const again = await run("indexes", "--flock", "alpha", "--reset", "person.shoe_size");
    expect(again.out[0]).toBe("person.shoe_size had no row of its own in alpha: nothing changed");

    const engineField = await run("indexes", "--flock", "alpha", "--drop", "person.tags");
    expect(engineField).toMatchObject({ code: 1, out: [] });
    expect(engineField.err).toEqual([expect.stringMatching(/^records-service: index needed: the service looks up 'tags' itself/)]);
    const unknownFlock = await run("indexes", "--flock", "ghost");
    expect(unknownFlock.code).toBe(1);
    expect(unknownFlock.err[0]).toMatch(/^records-service: unknown flock/);
    const unknownType = await run("indexes", "--flock", "alpha", "--add", "spaceship.name");
    expect(unknownType.code).toBe(1);
    expect(unknownType.err[0]).toMatch(/spaceship/);
  });

  it("a database that does not exist is an error, not created", async () => {
    const io = captureIo();
    const missing = join(dir, "nope", "x.db");
    expect(await runCli(["indexes", "--db", missing], io)).toBe(1);
    expect(io.errLines).toEqual([`records-service: no database at ${missing} (check --db)`]);
  });
});
