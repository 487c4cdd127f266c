/**
 * End to end: the real `records-service import` and `export`. A flock imported from NDJSON
 * and CSV (a file, and stdin) exports; the export imports into an empty database and
 * exports again to the same bytes; re-running changes nothing; refused lines are reported
 * with their numbers and exit 1; bad command lines exit 2, an unknown flock 1.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-import-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** The CLI with `input` on its stdin (spawn-cli's children have none). */
function runWithStdin(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx/esm", CLI, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Export of `db` as the bytes written to stdout. */
async function exportText(db: string, ...extra: string[]): Promise<string> {
  const r = await runCliToEnd(["export", "--flock", "demo", "--db", db, ...extra]);
  expect(r.code, r.stderr.join("\n")).toBe(0);
  return r.stdout.map((l) => `${l}\n`).join("");
}

describe("records-service import / export", () => {
  it("imports NDJSON and CSV, exports, and the export round-trips byte for byte", { timeout: 120_000 }, async () => {
    const a = join(tmp, "a.db");
    const b = join(tmp, "b.db");
    expect((await runCliToEnd(["flock", "add", "demo", "--db", a])).code).toBe(0);
    expect((await runCliToEnd(["flock", "add", "demo", "--db", b])).code).toBe(0);

    const people = join(tmp, "people.ndjson");
    writeFileSync(
      people,
      [
        `{"first_name":"Ada","last_name":"Lovelace","email":["ada@example.org;home"],"tags":["vip"]}`,
        `{"id":"0123456789abcdef01234567","state":"deleted","created":"2025-05-01T09:00:00.000000","first_name":"Gone"}`,
        `{"type":"membership","data":{"start_date":"2026-01-01","amount":30}}`,
      ].join("\n"),
    );
    let r = await runCliToEnd(["import", people, "--flock", "demo", "--db", a]);
    expect(r.code, r.stderr.join("\n")).toBe(0);
    expect(r.stdout.join("\n")).toMatch(/^3 created, 0 updated, 0 skipped .*0 refused; 3 rows \(ndjson\)/);

    const csv = join(tmp, "more.csv");
    writeFileSync(csv, "first_name,last_name,tags,email_opt_out\nBob,Brown,donor;newsletter,true\n");
    r = await runCliToEnd(["import", csv, "--flock", "demo", "--db", a]);
    expect(r.code, r.stderr.join("\n")).toBe(0);
    expect(r.stderr.join("\n")).toMatch(/importing .*rows/); // the progress line
    const piped = await runWithStdin(["import", "-", "--flock", "demo", "--db", a], "first_name,last_name\nCy,Stdin\n");
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^1 created/);

    const first = await exportText(a, "--include-deleted");
    const lines = first.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => `${l.type}:${l.data.first_name ?? l.data.amount}`)).toEqual(["membership:30", "person:Ada", "person:Gone", "person:Bob", "person:Cy"]);
    expect(lines[2]).toMatchObject({ id: "0123456789abcdef01234567", state: "deleted", created: "2025-05-01T09:00:00.000000" });
    expect(lines[3]!.data).toMatchObject({ tags: ["donor", "newsletter"], email_opt_out: true });
    expect((await exportText(a)).trimEnd().split("\n")).toHaveLength(4); // the deleted person only with --include-deleted

    const exported = join(tmp, "export.ndjson");
    writeFileSync(exported, first);
    r = await runCliToEnd(["import", exported, "--flock", "demo", "--db", b]);
    expect(r.code, r.stderr.join("\n")).toBe(0);
    expect(r.stdout.join("\n")).toMatch(/^5 created/);
    expect(await exportText(b, "--include-deleted")).toBe(first);
    expect(readFileSync(exported, "utf8")).toBe(first);

    // Again: every id is stored, nothing changes.
    r = await runCliToEnd(["import", exported, "--flock", "demo", "--db", b]);
    expect(r.code).toBe(0);
    expect(r.stdout.join("\n")).toMatch(/^0 created, 0 updated, 5 skipped/);
    expect(await exportText(b, "--include-deleted")).toBe(first);

    // The change log names the import as the writer (the command has no account).
    const storage = createSqliteStorage({ path: a, readonly: true });
    try {
      const rows = (await storage.readChanges("demo", 0, 100)).changes;
      expect(rows).toHaveLength(5);
      expect(rows.every((c) => c.actor === null && c.application === "system:import")).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it("export --format csv: one type as import reads CSV; the CSV imports back to the same records", { timeout: 120_000 }, async () => {
    const a = join(tmp, "csv-a.db");
    const b = join(tmp, "csv-b.db");
    expect((await runCliToEnd(["flock", "add", "demo", "--db", a])).code).toBe(0);
    expect((await runCliToEnd(["flock", "add", "demo", "--db", b])).code).toBe(0);
    const people = join(tmp, "csv-people.ndjson");
    writeFileSync(
      people,
      [
        `{"first_name":"Ada","last_name":"Lovelace","email":["ada@example.org;home","ada@work.example"],"tags":["vip","donor"],"email_opt_out":true}`,
        `{"first_name":"Bob","last_name":"Brown, Jr.","notes":"two\\nlines and \\"quotes\\""}`,
        `{"id":"0123456789abcdef01234567","state":"deleted","created":"2025-05-01T09:00:00.000000","first_name":"Gone"}`,
      ].join("\n"),
    );
    const imported = await runCliToEnd(["import", people, "--flock", "demo", "--db", a]);
    expect(imported.code, imported.stderr.join("\n")).toBe(0);
    const r = await runCliToEnd(["export", "--flock", "demo", "--type", "person", "--include-deleted", "--format", "csv", "--db", a]);
    expect(r.code, r.stderr.join("\n")).toBe(0);
    const csvText = r.stdout.map((l) => `${l}\n`).join("");
    expect(csvText.split("\n")[0]!.startsWith("type,id,state,created,last_updated,version,")).toBe(true);
    expect(csvText).toContain('"[""ada@example.org;home"",""ada@work.example""]"');
    expect(csvText).toContain("vip;donor");
    const csv = join(tmp, "people.csv");
    writeFileSync(csv, csvText);
    const back = await runCliToEnd(["import", csv, "--flock", "demo", "--db", b]);
    expect(back.code, back.stderr.join("\n")).toBe(0);
    expect(back.stdout.join("\n")).toMatch(/^3 created/);
    expect(await exportText(b, "--type", "person", "--include-deleted")).toBe(await exportText(a, "--type", "person", "--include-deleted"));
  });

  it("reports every refused line and exits 1, having written the rest", async () => {
    const db = join(tmp, "c.db");
    await runCliToEnd(["flock", "add", "demo", "--db", db]);
    const bad = join(tmp, "bad.ndjson");
    writeFileSync(bad, `{"first_name":"Fine"}\n{"first_name":7}\n\n{oops\n{"first_name":"Also fine"}\n`);
    const r = await runCliToEnd(["import", bad, "--flock", "demo", "--db", db]);
    expect(r.code).toBe(1);
    expect(r.stderr.filter((l) => /^line \d+:/.test(l))).toEqual([
      expect.stringMatching(/^line 2: .*first_name/),
      expect.stringMatching(/^line 4: not JSON/),
    ]);
    expect(r.stdout.join("\n")).toMatch(/^2 created, 0 updated, 0 skipped .*2 refused; 4 rows/);
  });

  it("exits 2 on a bad command line and 1 for an unknown flock, a missing file or database", async () => {
    const db = join(tmp, "d.db");
    await runCliToEnd(["flock", "add", "demo", "--db", db]);
    for (const args of [["import", "--flock", "demo"], ["import", "x.ndjson"], ["export"], ["import", "x", "--flock", "demo", "--events", "--no-events"], ["export", "--flock", "Bad Flock!"]]) {
      const r = await runCliToEnd([...args, "--db", db]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toHaveLength(1);
    }
    const some = join(tmp, "some.ndjson");
    writeFileSync(some, `{"first_name":"X"}\n`);
    for (const [args, message] of [
      [["import", some, "--flock", "nope", "--db", db], /flock 'nope' does not exist/],
      [["export", "--flock", "nope", "--db", db], /flock 'nope' does not exist/],
      [["import", join(tmp, "missing.ndjson"), "--flock", "demo", "--db", db], /no such file/],
      [["export", "--flock", "demo", "--db", join(tmp, "missing.db")], /no database/],
    ] as const) {
      const r = await runCliToEnd([...args]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr.join("\n")).toMatch(message);
    }
  });
});
