/**
 * @module test/e2e/spawn-cli
 * Runs the real `records-service` CLI as a child process, from its TypeScript source (tsx,
 * with the `source` export condition so workspace packages need no build), and reads its
 * output line by line. Every wait has a deadline; `killAll` ends whatever a test left.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
// A start hashes at the shipped scrypt cost (N = 2^17, about 0.35 s alone, several times
// that while the suite's other servers and tests share two cores); one spawn took 13-25 s at
// load 20-23 on two cores, past the 20 s this bound was. Still well inside the e2e
// project's 240 s test bound, so a hang ends with this wait's message.
const WAIT_MS = 90_000;

/** A running (or finished) CLI process. */
export interface CliProcess {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** Resolves with the first stdout line matching `re` (rejects after the deadline or at exit). */
  line(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (rejects after the deadline). */
  exited(timeoutMs?: number): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `records-service ...args` in the repository root.
 *
 * @example
 * const p = startCli(["serve", "--db", ":memory:", "--port", "0"]); await p.line(/listening on/);
 */
export function startCli(args: string[], env: Record<string, string | undefined> = {}): CliProcess {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx/esm", CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  _lines(child.stdout!, (l) => {
    stdout.push(l);
    for (const w of waiters) w();
  });
  _lines(child.stderr!, (l) => stderr.push(l));
  let done = false;
  // "close" comes after the output pipes have ended, so every line is in by then.
  const exit = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      done = true;
      running.delete(child);
      for (const w of waiters) w();
      resolve(code);
    }),
  );

  return {
    child,
    stdout,
    stderr,
    line: (re, timeoutMs = WAIT_MS) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = stdout.find((l) => re.test(l));
          if (hit !== undefined) return finish(() => resolve(hit));
          if (done) return finish(() => reject(new Error(`exited before printing ${re}; stderr: ${stderr.join(" | ")}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no line ${re} within ${timeoutMs} ms; stdout: ${stdout.join(" | ")}; stderr: ${stderr.join(" | ")}`))),
          timeoutMs,
        );
        const finish = (f: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          f();
        };
        waiters.add(check);
        check();
      }),
    exited: (timeoutMs = WAIT_MS) =>
      Promise.race([
        exit,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within ${timeoutMs} ms`)), timeoutMs).unref()),
      ]),
  };
}

/** Runs a CLI command to its end. */
export async function runCliToEnd(args: string[], env?: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  const p = startCli(args, env);
  const code = await p.exited();
  return { code, stdout: p.stdout, stderr: p.stderr };
}

/** Kills every child still running (for afterEach). */
export function killAll(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

// --- internal ---

function _lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    rest += chunk;
    const parts = rest.split("\n");
    rest = parts.pop()!;
    for (const p of parts) onLine(p);
  });
  stream.on("end", () => {
    if (rest) onLine(rest);
  });
}
