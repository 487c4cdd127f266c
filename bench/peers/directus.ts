/**
 * @module bench/peers/directus
 * Directus as the peer a user might pick instead: installed once (directus-install.ts),
 * one SQLite database per data set (size and seed) kept under `.bench-peers/directus/db/`,
 * with a `person` collection made through its REST API and filled with the same persons
 * as ours (same generator, same seed, same order). Started with its own CLI entry point;
 * telemetry and compliance reporting point at a closed loopback port.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { BATCH_SIZE, personBatch, type PersonInput } from "../lib/persons.js";
import { runToEnd, startServer, waitForHttp, type Server } from "../lib/proc.js";
import type { SeededDataset } from "../lib/types.js";
import { ensureDirectusInstalled, type DirectusInstall } from "./directus-install.js";

/** A running Directus with the data set loaded. */
interface DirectusPeer {
  url: string;
  /** A static admin token (`Authorization: Bearer <token>`). */
  token: string;
  /** The id of an existing person (integer primary key). */
  personId: number;
  server: Server;
  /** Seconds from spawn until it answered its ping. */
  startSeconds: number;
  stop(): Promise<void>;
}

/** The running peer, or why there is none. */
export type PeerOutcome = { ok: true; peer: DirectusPeer } | { ok: false; reason: string };

const ADMIN_EMAIL = "admin@example.org";
const ADMIN_PASSWORD = "bench-admin-password";
/** Bump when the peer's collection or seeding changes. */
const FORMAT = 1;

/**
 * Installs Directus if needed, prepares its database for `dataset` (cached) and starts it.
 * Never throws: any failure comes back as `{ ok: false, reason }`.
 */
export async function startDirectus(root: string, dataset: SeededDataset, log: (m: string) => void): Promise<PeerOutcome> {
  try {
    const installed = await ensureDirectusInstalled(root, log);
    if (!installed.ok) return installed;
    const dbDir = join(root, ".bench-peers", "directus", "db");
    mkdirSync(dbDir, { recursive: true });
    const file = join(dbDir, `persons-${dataset.size}-s${dataset.seed}.db`);
    const marker = `${file}.json`;
    const wanted = JSON.stringify({ format: FORMAT, size: dataset.size, seed: dataset.seed });
    if (!existsSync(file) || !existsSync(marker) || readFileSync(marker, "utf8") !== wanted) {
      for (const f of [file, marker]) rmSync(f, { force: true });
      await _prepare(installed.install, root, file, dataset, log);
      writeFileSync(marker, wanted);
    }
    const running = await _start(installed.install, root, file);
    const token = readFileSync(`${file}.token`, "utf8");
    return {
      ok: true,
      peer: { ...running, token, personId: Math.max(1, Math.floor(dataset.size / 2)) },
    };
  } catch (e) {
    return { ok: false, reason: (e as Error).message.slice(0, 400) };
  }
}

/** The JSON body Directus takes for one person (lists as JSON values). */
export function directusPerson(p: PersonInput): Record<string, unknown> {
  return { ...p };
}

// --- internal ---

/** Bootstraps a new database, creates the collection through the API, then fills it. */
async function _prepare(install: DirectusInstall, root: string, file: string, dataset: SeededDataset, log: (m: string) => void): Promise<void> {
  log(`directus: preparing a database of ${dataset.size} persons`);
  const boot = await runToEnd(install.node, [_cli(install), "bootstrap"], {
    cwd: install.appDir,
    env: await _env(install, root, file, 0),
    timeoutMs: 300_000,
  });
  if (boot.code !== 0) throw new Error(`directus bootstrap failed: ${(boot.stderr || boot.stdout).trim().slice(-300)}`);

  const running = await _start(install, root, file);
  try {
    const token = await _adminToken(running.url);
    writeFileSync(`${file}.token`, token);
    await _createCollection(running.url, token);
    // One batch through the REST API, to be sure it takes our persons as they are.
    const first = personBatch(dataset.seed, 0, Math.min(BATCH_SIZE, dataset.size));
    await _api(running.url, token, "POST", "/items/person", first.map(directusPerson));
  } finally {
    await running.stop();
  }
  // The rest straight into its table (the REST API takes minutes per 100k): same columns, same rows.
  _bulkInsert(file, dataset, log);
}

async function _start(install: DirectusInstall, root: string, file: string): Promise<{ url: string; server: Server; startSeconds: number; stop(): Promise<void> }> {
  const port = await _freePort();
  const started = performance.now();
  const server = startServer(install.node, [_cli(install), "start"], { cwd: install.appDir, env: await _env(install, root, file, port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/server/ping`, 120_000, server.hasExited);
  } catch (e) {
    await server.stop();
    throw new Error(`directus did not start: ${(e as Error).message}; output: ${server.output.slice(-5).join(" | ")}`);
  }
  return { url, server, startSeconds: (performance.now() - started) / 1000, stop: () => server.stop(10_000) };
}

function _cli(install: DirectusInstall): string {
  return join(install.appDir, "node_modules", "@directus", "api", "dist", "cli", "run.js");
}

async function _env(install: DirectusInstall, root: string, file: string, port: number): Promise<NodeJS.ProcessEnv> {
  const base = join(root, ".bench-peers", "directus");
  const uploads = join(base, "uploads");
  const extensions = join(base, "extensions");
  mkdirSync(uploads, { recursive: true });
  mkdirSync(extensions, { recursive: true });
  const secretFile = join(base, "secret");
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("hex"));
  const secret = readFileSync(secretFile, "utf8");
  // A port nothing listens on: telemetry and compliance calls fail at once, locally.
  const nowhere = "http://127.0.0.1:9";
  return {
    PATH: `${join(install.node, "..")}:${process.env.PATH ?? ""}`,
    HOME: process.env.HOME ?? base,
    DB_CLIENT: "sqlite3",
    DB_FILENAME: file,
    KEY: "bench-key",
    SECRET: secret,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TELEMETRY: "false",
    TELEMETRY_URL: nowhere,
    COMPLIANCE_URL: nowhere,
    WEBSOCKETS_ENABLED: "false",
    PRESSURE_LIMITER_ENABLED: "false",
    RATE_LIMITER_ENABLED: "false",
    CACHE_ENABLED: "false",
    LOG_LEVEL: "warn",
    STORAGE_LOCATIONS: "local",
    STORAGE_LOCAL_ROOT: uploads,
    EXTENSIONS_PATH: extensions,
    NODE_ENV: "production",
  };
}

async function _adminToken(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`directus login: ${res.status} ${await res.text()}`);
  const access = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  // A static token on the admin user: it does not expire during a long run.
  const token = randomBytes(24).toString("hex");
  await _api(url, access, "PATCH", "/users/me", { token });
  return token;
}

/** The `person` collection: an integer key and one column per generated field. */
async function _createCollection(url: string, token: string): Promise<void> {
  const text = (field: string) => ({ field, type: "string", meta: { interface: "input" }, schema: {} });
  const json = (field: string) => ({ field, type: "json", meta: { interface: "tags", special: ["cast-json"] }, schema: {} });
  await _api(url, token, "POST", "/collections", {
    collection: "person",
    meta: { icon: "person" },
    schema: {},
    fields: [
      { field: "id", type: "integer", meta: { hidden: true, readonly: true, interface: "input" }, schema: { is_primary_key: true, has_auto_increment: true } },
      text("first_name"),
      // Indexed, as anyone filtering on it would do.
      { ...text("last_name"), schema: { is_indexed: true } },
      text("title"),
      json("email"),
      json("telephone"),
      json("tags"),
      text("locality"),
      text("postal_code"),
      text("country"),
      { field: "date_of_birth", type: "date", meta: { interface: "datetime" }, schema: {} },
      text("job_title"),
      text("gender"),
    ],
  });
}

async function _api(url: string, token: string, method: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`directus ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Inserts batches 1.. of the data set into Directus's `person` table (batch 0 went through the API). */
function _bulkInsert(file: string, dataset: SeededDataset, log: (m: string) => void): void {
  const db = new Database(file);
  try {
    const cols = ["first_name", "last_name", "title", "email", "telephone", "tags", "locality", "postal_code", "country", "date_of_birth", "job_title", "gender"] as const;
    const ins = db.prepare(`INSERT INTO person (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
    const batch = db.transaction((persons: PersonInput[]) => {
      for (const p of persons) {
        ins.run(...cols.map((c) => {
          const v = p[c];
          return Array.isArray(v) ? JSON.stringify(v) : v;
        }));
      }
    });
    let lastLog = performance.now();
    for (let b = 1; b * BATCH_SIZE < dataset.size; b++) {
      batch(personBatch(dataset.seed, b, Math.min(BATCH_SIZE, dataset.size - b * BATCH_SIZE)));
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`  directus: ${(b + 1) * BATCH_SIZE} / ${dataset.size} persons`);
      }
    }
    const { n } = db.prepare("SELECT count(*) AS n FROM person").get() as { n: number };
    if (n !== dataset.size) throw new Error(`directus person table holds ${n} rows, expected ${dataset.size}`);
  } finally {
    db.close();
  }
}

function _freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
