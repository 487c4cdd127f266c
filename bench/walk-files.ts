/**
 * @module bench/walk-files
 * Which source files one request runs code in, and which `Storage` members it calls: the
 * figures of docs/architecture.md's walks of one write and one filtered list. The app runs
 * in process on a SQLite file; each request is made once to warm the caches, then again
 * under V8's precise coverage (counts reset just before it), and every file of
 * `packages/*\/src` with a function that ran is listed, by package.
 *
 *   node --conditions=source --import tsx bench/walk-files.ts
 */
import { Session } from "node:inspector/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordEngine, formatTimestamp, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { createApp } from "../packages/server/src/app.js";
import { hashToken } from "../packages/server/src/auth/tokens.js";

/** The API key of the requests (its hash is stored below). */
const KEY = "walk-files-key-0123456789abcdef0123456789abcdef";

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });

const dir = mkdtempSync(join(tmpdir(), "walk-files-"));
const calls: string[] = [];
const storage = _counted(createSqliteStorage({ path: join(dir, "records.db") }), calls);
const engine = createRecordEngine({ storage });
const now = formatTimestamp(new Date());
await storage.createFlock({ identifier: "demo", name: "Demo", created: now });
await storage.putUser({ username: "ada", passwordHash: "unused", flocks: ["demo"], role: "core", created: now });
await storage.putApiKey({ tokenHash: hashToken(KEY), username: "ada", created: now, expires: null });
const app = createApp({ engine, secret: "walk-files-secret-0123456789", log: () => undefined });
const ids: string[] = [];
for (let i = 0; i < 2; i++) ids.push((await engine.create("demo", "person", { first_name: `A${i}`, last_name: "Lovelace" })).id);

const put = (id: string) => () => _call(app, "PUT", `/api/v1/demo/person/${id}/`, { title: `Countess ${id}` });
const list = () => _call(app, "GET", "/api/v1/demo/person/?last_name=Lovelace");
await put(ids[0]!)();
await list();
await _measure("PUT /api/v1/demo/person/{id}/", put(ids[1]!));
await _measure("GET /api/v1/demo/person/?last_name=Lovelace", list);
await storage.close();
rmSync(dir, { recursive: true, force: true });

// --- internal ---


async function _call(app: ReturnType<typeof createApp>, method: string, path: string, json?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}`, application: "Bench/WalkFiles/1" };
  if (json !== undefined) headers["content-type"] = "application/json";
  const res = await app.request(path, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  await res.text();
  return res;
}

/** Runs `request` under fresh coverage counts and prints the files and Storage calls it made. */
async function _measure(name: string, request: () => Promise<Response>): Promise<void> {
  await session.post("Profiler.takePreciseCoverage"); // resets the counts
  calls.length = 0;
  await request();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const byPackage = new Map<string, string[]>();
  for (const script of result) {
    const m = /\/packages\/([a-z]+)\/src\/(.*)$/.exec(script.url);
    if (!m || script.url.includes("/node_modules/")) continue;
    // The first range of each function is the function itself; offset 0 is the module body.
    if (!script.functions.some((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0)) continue;
    const files = byPackage.get(m[1]!) ?? [];
    files.push(m[2]!);
    byPackage.set(m[1]!, files);
  }
  const total = [...byPackage.values()].reduce((n, f) => n + f.length, 0);
  console.log(`\n${name}: ${total} files`);
  for (const [pkg, files] of [...byPackage].sort()) console.log(`  ${pkg} ${files.length}: ${files.sort().join(", ")}`);
  console.log(`  Storage calls ${calls.length}: ${calls.join(", ")}`);
}

/** `storage`, noting the name of every member called into `calls`. */
function _counted(storage: Storage, calls: string[]): Storage {
  return new Proxy(storage, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
