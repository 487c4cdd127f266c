/**
 * Processes that open a new database file at the same moment all start: drizzle reads which
 * migrations a file has before its transaction, so the later ones used to run them again
 * and fail ("table already exists"). Real processes, since better-sqlite3 is synchronous.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "records-open-race-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPEN = fileURLToPath(new URL("./open.ts", import.meta.url));

/** Opens `path` in a new process once the wall clock reaches `at` (ms); resolves with its exit code and stderr. */
function openAt(path: string, at: number): Promise<{ code: number | null; stderr: string }> {
  const script = `const { openDatabase } = await import(${JSON.stringify(OPEN)});
while (Date.now() < ${at});
openDatabase({ path: ${JSON.stringify(path)} }).$client.close();`;
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stderr })));
}

describe("opening a new file from several processes at once", () => {
  it("migrates it once and every process starts", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const path = join(dir, `race-${round}.db`);
      const at = Date.now() + 2500; // after every process has loaded its modules
      const results = await Promise.all(Array.from({ length: 4 }, () => openAt(path, at)));
      expect(results.map((r) => (r.code === 0 ? "ok" : r.stderr.slice(0, 600)))).toEqual(["ok", "ok", "ok", "ok"]);
    }
  });
});
