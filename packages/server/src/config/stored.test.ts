import { createFakeClock, createMemoryStorage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { ConfigError } from "./issues.js";
import {
  APPLIED_CONFIG_SETTING,
  appliedConfigToken,
  readAppliedConfig,
  recordAppliedConfig,
  redactedConfig,
  REDACTED,
  storedConfigToConfig,
} from "./stored.js";

const HOOK = "https://hook-user:hook-pw@hooks.example.org/in?token=abc";
const FILE = {
  secret: "a-long-enough-secret-value",
  flocks: [{ identifier: "demo", name: "Demo" }],
  users: [{ username: "ada@example.org", password: "ada's password", flocks: ["demo"] }],
  templates: [{ flock: "demo", name: "welcome", subject: "Hi", body: "Hello" }],
  triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: HOOK }],
  resourceTypes: [{ flock: "demo", types: ["volunteer"] }],
  webhooks: { firstRetryDelayMs: 500 },
  mail: { smtp: "smtp://mailer:smtp-pw@127.0.0.1:2525", from: "records@example.org" },
};

describe("the applied configuration in the database", () => {
  const clock = createFakeClock("2026-11-28T05:00:00.000Z");

  it("keeps every part but the secrets, and loads back as the same configuration", async () => {
    const storage = createMemoryStorage();
    expect(await readAppliedConfig(storage)).toBeUndefined();
    const { stored, changed } = (await recordAppliedConfig(storage, clock, parseConfig(FILE), { source: "records.json", secretChanged: false }))!;
    expect(changed).toBe(true);
    expect(stored).toMatchObject({ revision: 1, appliedAt: "2026-11-28T05:00:00.000Z", source: "records.json", secretConfigured: true });
    expect(await appliedConfigToken(storage)).toBe(stored.token);
    const text = (await storage.getSetting(APPLIED_CONFIG_SETTING))!;
    // Neither the secret nor a password is kept in the stored document.
    expect(text).not.toContain(FILE.secret);
    expect(text).not.toContain("ada's password");
    const { secret: _s, users: _u, ...rest } = FILE;
    expect((await readAppliedConfig(storage))!.document).toEqual({ ...rest, users: [{ username: "ada@example.org", flocks: ["demo"] }] });
    const loaded = storedConfigToConfig(stored);
    const file = parseConfig(FILE);
    for (const key of ["flocks", "templates", "triggers", "resourceTypes", "webhooks", "mail", "scheduler", "throttle"] as const) {
      expect(loaded[key]).toEqual(file[key]);
    }
    expect(loaded.users).toEqual([]);
  });

  it("a new revision only when the document or the secret changed; tokens are unique per apply", async () => {
    const storage = createMemoryStorage();
    const first = (await recordAppliedConfig(storage, clock, parseConfig(FILE), { source: "a.json", secretChanged: false }))!;
    const again = (await recordAppliedConfig(storage, clock, parseConfig(FILE), { source: "b.json", secretChanged: false }))!;
    expect(again).toEqual({ stored: first.stored, changed: false });
    // A new password alone lives in the users table: no revision for it.
    const newPassword = { ...FILE, users: [{ ...FILE.users[0]!, password: "another password" }] };
    expect((await recordAppliedConfig(storage, clock, parseConfig(newPassword), { source: "a.json", secretChanged: false }))!.changed).toBe(false);
    const rotated = (await recordAppliedConfig(storage, clock, parseConfig(FILE), { source: "a.json", secretChanged: true }))!;
    expect(rotated.stored.revision).toBe(2);
    const noTrigger = (await recordAppliedConfig(storage, clock, parseConfig({ ...FILE, triggers: [] }), { source: "c.json", secretChanged: false }))!;
    expect(noTrigger.stored).toMatchObject({ revision: 3, source: "c.json" });
    expect(new Set([first.stored.token, rotated.stored.token, noTrigger.stored.token]).size).toBe(3);
    expect(await appliedConfigToken(storage)).toBe(noTrigger.stored.token);
  });

  it("config show's form redacts the secret, passwords, SMTP and webhook credentials", async () => {
    const storage = createMemoryStorage();
    const { stored } = (await recordAppliedConfig(storage, clock, parseConfig(FILE), { source: "records.json", secretChanged: false }))!;
    const shown = redactedConfig(stored);
    const text = JSON.stringify(shown);
    for (const secret of [FILE.secret, "ada's password", "smtp-pw", "mailer", "hook-pw", "token=abc"]) expect(text).not.toContain(secret);
    expect(shown).toMatchObject({
      revision: 1,
      applied_at: "2026-11-28T05:00:00.000Z",
      source: "records.json",
      config: {
        secret: REDACTED,
        users: [{ username: "ada@example.org", password: REDACTED, flocks: ["demo"] }],
        mail: { smtp: `smtp://${REDACTED}@127.0.0.1:2525`, from: "records@example.org" },
        triggers: [{ url: "https://***@hooks.example.org/in?***" }],
        templates: FILE.templates,
      },
    });
    const { stored: plain } = (await recordAppliedConfig(storage, clock, parseConfig({ flocks: [{ identifier: "demo" }] }), { source: "x", secretChanged: false }))!;
    expect(redactedConfig(plain).config).toEqual({ flocks: [{ identifier: "demo" }] });
  });

  it("config show redacts the metrics token and keeps the rest of the metrics section", async () => {
    const storage = createMemoryStorage();
    const token = "scrape-token-0123456789";
    const { stored } = (await recordAppliedConfig(storage, clock, parseConfig({ metrics: { enabled: true, token } }), { source: "m.json", secretChanged: false }))!;
    const shown = redactedConfig(stored);
    expect(JSON.stringify(shown)).not.toContain(token);
    expect(shown.config).toMatchObject({ metrics: { enabled: true, token: REDACTED } });
  });

  it("a stored setting this version cannot read is a ConfigError naming the way out", async () => {
    const storage = createMemoryStorage();
    await storage.putSetting(APPLIED_CONFIG_SETTING, "{not json");
    await expect(readAppliedConfig(storage)).rejects.toThrow(ConfigError);
    await storage.putSetting(APPLIED_CONFIG_SETTING, JSON.stringify({ revision: 1 }));
    await expect(readAppliedConfig(storage)).rejects.toThrow(/config apply FILE/);
    const bad = { revision: 4, token: "4.x", appliedAt: "2026-11-28T05:00:00.000Z", source: "x", document: { flocks: [{ identifier: "Bad" }] }, secretConfigured: false };
    expect(() => storedConfigToConfig(bad)).toThrow(/flocks.*revision 4/);
  });
});
