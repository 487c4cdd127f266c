/**
 * @module bench/lib/our-server
 * Starts `records-service serve` as its own process: the built CLI
 * (`packages/server/bin/records-service.js`, what users run) when `dist/` is at least as new
 * as the sources, else from the TypeScript sources through tsx (noted in the results).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { runToEnd, startServer, type Server } from "./proc.js";

/** How the server is launched. */
export interface ServerCommand {
  cmd: string;
  args: string[];
  /** "built" or "source (tsx)". */
  kind: string;
}

/** A running server of ours. */
export interface OurServer {
  url: string;
  server: Server;
  /** ms from spawn to the `listening` line. */
  startMs: number;
}

let _build: Promise<string | undefined> | undefined;
/** Set once this run's build succeeded: sources edited since (by others) do not make it stale. */
let _builtThisRun = false;

/**
 * Builds the packages once per run when `dist/` is older than the sources; resolves with a
 * reason when the build fails (the caller then runs from source).
 */
export function ensureBuilt(root: string, log: (m: string) => void): Promise<string | undefined> {
  _build ??= (async () => {
    if (_isFresh(root)) return undefined;
    log("building the packages (npm run build) so the server runs as users run it");
    const r = await runToEnd("npm", ["run", "build"], { cwd: root, timeoutMs: 600_000 });
    if (r.code !== 0) {
      const lines = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => /error/i.test(l) && !/^npm warn/i.test(l));
      return `npm run build failed: ${lines.slice(0, 2).join(" / ").slice(0, 200) || `exit ${r.code}`}`;
    }
    _builtThisRun = true;
    return undefined;
  })();
  return _build;
}

/** The built CLI when fresh, else the source through tsx. */
export function serverCommand(root: string): ServerCommand {
  if (_builtThisRun || _isFresh(root)) return { cmd: process.execPath, args: [join(root, "packages/server/bin/records-service.js")], kind: "built" };
  return {
    cmd: process.execPath,
    args: ["--conditions=source", "--import", "tsx/esm", join(root, "packages/server/src/cli.ts")],
    kind: "source (tsx)",
  };
}

/** Spawns `serve --db <file> --port 0 --quiet` and waits for its listening line. */
export async function startOurs(root: string, db: string, extra: string[] = []): Promise<OurServer> {
  const { cmd, args } = serverCommand(root);
  const started = performance.now();
  const server = startServer(cmd, [...args, "serve", "--db", db, "--port", "0", "--quiet", ...extra], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
  });
  try {
    const line = await server.line(/listening on (http:\/\/\S+)/, 120_000);
    const startMs = performance.now() - started;
    return { url: /listening on (http:\/\/\S+)/.exec(line)![1]!, server, startMs };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

// --- internal ---

/** True when every package's dist is newer than its newest source file. */
function _isFresh(root: string): boolean {
  for (const pkg of ["core", "sql", "sqlite", "postgres", "server"]) {
    const dist = join(root, "packages", pkg, "dist", pkg === "server" ? "cli.js" : "index.js");
    if (!existsSync(dist)) return false;
    const built = statSync(dist).mtimeMs;
    if (_newest(join(root, "packages", pkg, "src")) > built) return false;
  }
  return true;
}

function _newest(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, _newest(p));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}
