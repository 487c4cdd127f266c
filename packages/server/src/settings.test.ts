/**
 * Resolving settings: every missing value from config/schema's defaults, given ones kept,
 * the same defaults whether they come through the config file's schema or not, and a
 * resolved object handed on as it is.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { CONFIG_DEFAULTS, TUNING_DEFAULTS } from "./config/schema.js";
import { resolveSettings, settingsOf } from "./settings.js";

describe("resolveSettings", () => {
  it("fills every setting from the defaults", () => {
    const s = resolveSettings();
    // `backup` and `invoicing` entries take their defaults only when given (no backups, no entries by default).
    const { backup: _backup, invoicing: _invoicing, ...always } = CONFIG_DEFAULTS;
    expect(s).toMatchObject({ ...always, invoicing: [] });
    expect(s).toMatchObject(TUNING_DEFAULTS);
    expect(s.mail).toBeUndefined();
    expect(s.backup).toBeUndefined();
  });

  it("keeps what is given, key by key within a section", () => {
    const s = resolveSettings({ changes: { maxFeedsPerKey: 2 }, loginGuard: { maxFailures: 3 }, backup: { dir: "./b", cron: "0 0 * * * *", keep: 2 } });
    expect(s.changes).toEqual({ ...CONFIG_DEFAULTS.changes, maxFeedsPerKey: 2 });
    expect(s.loginGuard).toEqual({ ...TUNING_DEFAULTS.loginGuard, maxFailures: 3 });
    expect(s.backup).toEqual({ dir: "./b", cron: "0 0 * * * *", keep: 2 });
  });

  it("hands a resolved object on as it is, so the app and the workers given it share it", () => {
    const s = resolveSettings({ throttle: { unattributedPerMinute: 3 } });
    expect(resolveSettings(s)).toBe(s);
    const fromConfig = settingsOf(parseConfig({}));
    expect(resolveSettings(fromConfig)).toBe(fromConfig);
  });
});

describe("settingsOf", () => {
  it("gives an empty config the same settings as no input at all: the schema's defaults are CONFIG_DEFAULTS", () => {
    expect(settingsOf(parseConfig({}))).toEqual(resolveSettings());
  });

  it("takes the config file's sections, the tunings from the defaults", () => {
    const s = settingsOf(parseConfig({ throttle: { unattributedPerMinute: 5 }, mail: { smtp: "smtp://127.0.0.1:2525", from: "r@example.org" } }));
    expect(s.throttle.unattributedPerMinute).toBe(5);
    expect(s.mail).toEqual({ smtp: "smtp://127.0.0.1:2525", from: "r@example.org" });
    expect(s.outbox).toEqual(TUNING_DEFAULTS.outbox);
  });
});
