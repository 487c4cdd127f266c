/**
 * One resolved settings object per configuration, shared by the app and the workers: a
 * started server's workers get the config file's values (and the defaults for the rest),
 * and the app answers by the same values (the throttle's limit header, a key's lifetime);
 * after another process applies a new configuration, both move to it together.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTimestamp, systemClock } from "@records-service/core";
import { afterAll, describe, expect, it } from "vitest";
import { createPasswordHasher } from "../src/auth/passwords.js";
import { hashToken } from "../src/auth/tokens.js";
import { applyConfig } from "../src/config/apply.js";
import { parseConfig } from "../src/config.js";
import { CONFIG_DEFAULTS, TUNING_DEFAULTS } from "../src/config/schema.js";
import { recordAppliedConfig } from "../src/config/stored.js";
import { startServer, type RunningServer, type WorkerFactory } from "../src/runtime.js";
import type { Settings } from "../src/settings.js";
import { openStorage } from "../src/storage-open.js";

const CHEAP = { N: 16, r: 1, p: 1 };
const tmp = mkdtempSync(join(tmpdir(), "records-settings-shared-"));
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const configJson = (perMinute: number, keyTtlHours: number) => ({
  secret: "settings-shared-secret-0123456789",
  flocks: [{ identifier: "demo", name: "Demo" }],
  users: [{ username: "ada@example.org", password: "pw-for-settings", flocks: ["*"] }],
  throttle: { unattributedPerMinute: perMinute },
  auth: { keyTtlHours },
});

describe("the app and the workers share one resolved settings object", () => {
  it("both read the config's values and the defaults, before and after another process applies a configuration", async () => {
    const db = join(tmp, "records.db");
    const seen: Settings[] = [];
    // A worker with nothing to do but remember what it was given (false: not listed as running).
    const capture: WorkerFactory = (ctx) => ({ name: "capture", start: () => (seen.push(ctx.settings), false), stop: async () => {} });
    server = await startServer({ db, host: "127.0.0.1", port: 0, config: parseConfig(configJson(2, 5)), passwordCost: CHEAP, workers: [capture], seed: false });

    expect(seen).toHaveLength(1);
    expect(seen[0]!.throttle.unattributedPerMinute).toBe(2);
    expect(seen[0]!.auth.keyTtlHours).toBe(5);
    expect(seen[0]!.changes).toEqual(CONFIG_DEFAULTS.changes);
    expect(seen[0]!.outbox).toEqual(TUNING_DEFAULTS.outbox);

    // The app, by the same values: a key lives auth.keyTtlHours, the throttle's limit is the config's.
    const login = await fetch(`${server.url}/api/v1/auth/`, {
      method: "POST",
      headers: { "content-type": "application/json", application: "settings-test" },
      body: JSON.stringify({ username: "ada@example.org", password: "pw-for-settings" }),
    });
    const { api_key: key } = (await login.json()) as { api_key: string };
    const stored = await server.storage.getApiKey(hashToken(key));
    const lifetimeMs = parseTimestamp(stored!.expires!)!.getTime() - parseTimestamp(stored!.created)!.getTime();
    expect(lifetimeMs).toBe(seen[0]!.auth.keyTtlHours * 3_600_000);
    const limitHeader = async () =>
      (await fetch(`${server!.url}/api/v1/demo/person/`, { headers: { authorization: `Bearer ${key}` } })).headers.get("x-rate-limit-limit");
    expect(await limitHeader()).toBe(String(seen[0]!.throttle.unattributedPerMinute));

    // Another process applies a configuration: the rebuilt app and workers read its values.
    const other = await openStorage(db, { watchChanges: false });
    try {
      const config = parseConfig(configJson(4, 6));
      const applied = await applyConfig(other, systemClock, config, createPasswordHasher(CHEAP));
      await recordAppliedConfig(other, systemClock, config, { source: "other", secretChanged: applied.secretChanged });
    } finally {
      await other.close();
    }
    await server.checkConfig();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.throttle.unattributedPerMinute).toBe(4);
    expect(await limitHeader()).toBe("4");
  });
});
