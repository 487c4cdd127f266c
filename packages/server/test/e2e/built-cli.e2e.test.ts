/**
 * `npm start` runs the built CLI (`bin/records-service.js` → `dist/cli.js`), not the
 * TypeScript source the other e2e tests spawn: a dependency bundled by mistake (tsup inlines
 * every import its package.json does not list) breaks only the build. This test starts the
 * build as the README does. `npm ci` builds it (the root `prepare`); CI fails without it.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/records-service.js", import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL("../../dist/cli.js", import.meta.url)));

describe.skipIf(!BUILT && !process.env.CI)("the built CLI (npm start)", () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => {
    for (const c of children) c.kill("SIGKILL");
  });

  it("serves on an in-memory SQLite database and answers a ping", async () => {
    expect(BUILT, "packages/server/dist/cli.js is missing: npm ci builds it").toBe(true);
    const child = spawn(process.execPath, [BIN, "serve", "--db", ":memory:", "--port", "0", "--host", "127.0.0.1"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let out = "";
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("close", (code) => reject(new Error(`the built CLI exited (${code}) before listening: ${err.slice(0, 2000)}`)));
    });
    const res = await fetch(`${url}/api/v1/ping`);
    expect(res.status).toBe(200);
    child.kill("SIGTERM");
    expect(await new Promise((r) => child.once("close", r))).toBe(0);
  });
});
