/**
 * @module runtime/config-watch
 * How a running process learns that another process (or `records-service config apply`)
 * applied a new configuration: every `intervalMs` it reads the small `config.revision`
 * setting (one primary-key read) and, when the token moved, reads the stored configuration
 * and hands it to `reload`. Checks never overlap. A stored configuration that does not
 * load (a `ConfigError`) is reported once and the process keeps what it runs; a database
 * out of reach is reported once and the check simply runs again.
 */
import type { Storage } from "@records-service/core";
import { ConfigError } from "../config/issues.js";
import { appliedConfigToken, readAppliedConfig, type StoredConfig } from "../config/stored.js";

/** A running watch. */
export interface ConfigWatch {
  /** Runs a check now (or waits for the one running); resolves when it is done. */
  check(): Promise<void>;
  /** Stops checking; waits for a check (and a reload) in progress. */
  stop(): Promise<void>;
}

/**
 * Starts watching. `token`: the revision the process runs now (undefined: none applied).
 *
 * @example
 * const watch = watchAppliedConfig({ storage, token, intervalMs: 2000, reload: async (stored) => {...}, out: console.log });
 */
export function watchAppliedConfig(opts: {
  storage: Storage;
  token: string | undefined;
  /** How often to check (the settings' `configCheckMs`). */
  intervalMs: number;
  reload: (stored: StoredConfig) => Promise<void>;
  out: (line: string) => void;
}): ConfigWatch {
  let seen = opts.token;
  let running: Promise<void> | undefined;
  let stopped = false;
  let failing = false;
  const once = async () => {
    try {
      const token = await appliedConfigToken(opts.storage);
      if (token === undefined || token === seen || stopped) return;
      const stored = await readAppliedConfig(opts.storage);
      if (!stored || stopped) return;
      try {
        await opts.reload(stored);
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        opts.out(`${e.message}; still running with the configuration loaded before`);
      }
      // Acted on (or refused for good): the next reload waits for the next apply.
      seen = token;
      failing = false;
    } catch (e) {
      if (!failing) opts.out(`config: checking for a newly applied configuration failed: ${e instanceof Error ? e.message : String(e)}; trying again`);
      failing = true;
    }
  };
  const check = () => (running ??= once().finally(() => (running = undefined)));
  const timer = setInterval(() => void check(), opts.intervalMs);
  timer.unref?.();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
