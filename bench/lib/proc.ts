/**
 * @module bench/lib/proc
 * Child processes for the benchmarks: run a command to its end, start a server and wait
 * until it answers, read its memory, stop it. Every wait has a deadline.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readFileSync } from "node:fs";

/** The outcome of a command run to its end. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd args` to its end (killed after `timeoutMs`), collecting its output. */
export function runToEnd(cmd: string, args: string[], opts: SpawnOptions & { timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 600_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${e.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running child whose output is kept (last 200 lines). */
export interface Server {
  child: ChildProcess;
  output: string[];
  /** Resolves with the first output line matching `re`, or rejects at exit or after the deadline. */
  line(re: RegExp, timeoutMs?: number): Promise<string>;
  /** True once the process has exited. */
  hasExited(): boolean;
  /** Resident set size in MB, from /proc (undefined when not readable). */
  rssMb(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `cmd args` with piped output. */
export function startServer(cmd: string, args: string[], opts: SpawnOptions = {}): Server {
  const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const waiters = new Set<() => void>();
  let exited = false;
  const onData = (chunk: Buffer) => {
    for (const l of chunk.toString().split("\n")) {
      if (!l) continue;
      output.push(l);
      if (output.length > 200) output.shift();
    }
    for (const w of waiters) w();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const done = new Promise<void>((resolve) =>
    child.once("close", () => {
      exited = true;
      for (const w of waiters) w();
      resolve();
    }),
  );
  child.once("error", () => undefined);

  return {
    child,
    output,
    line: (re, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = output.find((l) => re.test(l));
          if (hit !== undefined) return finish(() => resolve(hit));
          if (exited) return finish(() => reject(new Error(`exited before printing ${re}: ${output.slice(-5).join(" | ")}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no line ${re} within ${timeoutMs} ms`))), timeoutMs);
        const finish = (f: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          f();
        };
        waiters.add(check);
        check();
      }),
    hasExited: () => exited,
    rssMb: () => (child.pid === undefined ? undefined : processRssMb(child.pid)),
    stop: async (graceMs = 5000) => {
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await done;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process in MB (Linux /proc), or undefined. */
function processRssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Polls `url` until it answers (any status below 500), the deadline passes or `gaveUp()` says so. */
export async function waitForHttp(url: string, timeoutMs = 60_000, gaveUp: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (gaveUp()) throw new Error(`gave up waiting for ${url} (the process exited)`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}
