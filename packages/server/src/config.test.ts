import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS, ConfigError, loadConfig, parseConfig } from "./config.js";

const FULL = {
  secret: "0123456789abcdef0123",
  flocks: [{ identifier: "demo", name: "Demo Society" }],
  users: [{ username: "ada@example.org", password: "pw", flocks: ["demo"], role: "core" }],
  templates: [{ flock: "demo", name: "welcome", subject: "Hello <%= it.data.first_name %>", body: "..." }],
  triggers: [
    {
      flock: "demo",
      trigger: "contact_created",
      action: "send-json-webhook",
      url: "https://example.org/hook",
      template: "",
      active: true,
      comment: "",
      conditional_templates: { template: [{ order: 1, template: "welcome", conditions: [{ tags: "vip" }] }] },
    },
  ],
  scheduler: { cron: "0 * * * * *" },
  webhooks: { allowInsecureUrls: false, firstRetryDelayMs: 60000, retryWindowHours: 168 },
  throttle: { unattributedPerMinute: 60 },
  mail: { smtp: "smtp://127.0.0.1:2525", from: "records@example.org" },
};

describe("parseConfig", () => {
  it("refuses the contract's sample password \"pw\": passwords have at least 8 characters (issue 15 wins)", () => {
    expect(() => parseConfig(FULL)).toThrow(
      new ConfigError('config: "users[0].password" must be at least 8 characters (the minimum password length)'),
    );
  });

  it("accepts the contract's example with a password of the minimum length", () => {
    const c = parseConfig({ ...FULL, users: [{ ...FULL.users[0], password: "8 chars!" }] });
    expect(c.flocks).toEqual(FULL.flocks);
    expect(c.triggers[0]).toMatchObject({
      flock: "demo",
      trigger: "contact_created",
      event: "contact",
      variation: "created",
      action: "send-json-webhook",
      url: "https://example.org/hook",
      template: null,
      active: true,
    });
    expect(c.warnings).toEqual([]);
    expect(c.mail).toEqual(FULL.mail);
  });

  it("fills every default for an empty object", () => {
    const c = parseConfig({});
    expect(c).toEqual({
      flocks: [],
      users: [],
      templates: [],
      triggers: [],
      resourceTypes: [],
      scheduler: CONFIG_DEFAULTS.scheduler,
      webhooks: CONFIG_DEFAULTS.webhooks,
      throttle: CONFIG_DEFAULTS.throttle,
      database: CONFIG_DEFAULTS.database,
      auth: { keyTtlHours: 720 },
      workers: { leaseMs: 60_000 },
      clock: "system",
      changes: { retentionDays: 7, maxFeedsPerKey: 8, maxFeedsPerFlock: 64, maxBufferBytes: 262_144 },
      metrics: { enabled: false },
      invoicing: [],
      indexes: { earnAfter: 20, minRecords: 5000, fields: {} },
      warnings: [],
    });
  });

  it("takes declared indexes by type and refuses a bad type or field name", () => {
    expect(parseConfig({ indexes: { fields: { membership: ["level"] }, earnAfter: 3 } }).indexes).toEqual({ earnAfter: 3, minRecords: 5000, fields: { membership: ["level"] } });
    expect(() => parseConfig({ indexes: { fields: { Membership: ["level"] } } })).toThrow(/indexes\.fields/);
    expect(() => parseConfig({ indexes: { fields: { membership: ["9lives"] } } })).toThrow(/data field name/);
    expect(() => parseConfig({ indexes: { earnAfter: 0 } })).toThrow(/indexes\.earnAfter/);
    // A type no flock serves: refused at load, naming the key (a misspelt type would index nothing).
    expect(() => parseConfig({ indexes: { fields: { membreship: ["level"] } } })).toThrow(
      'config: "indexes.fields.membreship" names type "membreship", which no flock serves (neither a built-in type nor in "resourceTypes")',
    );
    // A flock's own type is served.
    expect(parseConfig({ resourceTypes: [{ flock: "demo", types: ["volunteer"] }], flocks: [{ identifier: "demo", name: "Demo" }], indexes: { fields: { volunteer: ["skill"] } } }).indexes.fields).toEqual({ volunteer: ["skill"] });
  });

  it("takes clock manual, at a time or now, and refuses anything else", () => {
    expect(parseConfig({ clock: "manual=2026-01-01T00:00:00Z" }).clock).toBe("manual=2026-01-01T00:00:00Z");
    expect(parseConfig({ clock: "manual" }).clock).toBe("manual");
    expect(() => parseConfig({ clock: "tomorrow" })).toThrow(/clock/);
    expect(() => parseConfig({ clock: 5 })).toThrow(/clock/);
  });

  it("fills defaults inside a partly given section and of a trigger", () => {
    const c = parseConfig({
      webhooks: { allowInsecureUrls: true },
      flocks: [{ identifier: "demo" }],
      triggers: [{ flock: "demo", trigger: "lapsed_90d", action: "send-json-webhook", url: "http://localhost:9/x" }],
    });
    expect(c.webhooks).toEqual({ ...CONFIG_DEFAULTS.webhooks, allowInsecureUrls: true });
    expect(c.triggers[0]).toMatchObject({ trigger: "lapsed_90d", event: "lapsed", variation: "90d", template: null, active: true, comment: "" });
    expect(c.users).toEqual([]);
  });

  it("defaults a user's role to core", () => {
    expect(parseConfig({ users: [{ username: "a", password: "a password", flocks: ["*"] }] }).users[0]?.role).toBe("core");
  });

  it("takes auth.keyTtlHours, default 720 (30 days)", () => {
    expect(CONFIG_DEFAULTS.auth.keyTtlHours).toBe(720);
    expect(parseConfig({ auth: { keyTtlHours: 24 } }).auth).toEqual({ keyTtlHours: 24 });
  });

  const trigger = (extra: Record<string, unknown>) => ({
    flocks: [{ identifier: "demo" }],
    triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://x.org/h", ...extra }],
  });

  it.each([
    { name: "top level list", input: [], message: "config: expected a JSON object at the top level, got a list" },
    { name: "top level string", input: "x", message: "config: expected a JSON object at the top level, got a string" },
    { name: "top level null", input: null, message: "config: expected a JSON object at the top level, got null" },
    { name: "unknown top key", input: { flock: [] }, message: 'config: unknown key "flock" (accepted: secret, flocks, users, templates, triggers, resourceTypes, scheduler, webhooks, throttle, database, auth, workers, changes, metrics, mail, backup, indexes, invoicing, clock)' },
    { name: "metrics enabled with neither token nor port", input: { metrics: { enabled: true } }, message: 'config: "metrics.enabled" needs metrics.token (a bearer token) or metrics.port (a port of its own on 127.0.0.1): metrics are never open on the API\'s port' },
    { name: "metrics token too short", input: { metrics: { enabled: true, token: "short" } }, message: 'config: "metrics.token" must be at least 16 characters' },
    { name: "metrics token with a space", input: { metrics: { enabled: true, token: "sixteen chars or more" } }, message: 'config: "metrics.token" must be printable ASCII without spaces (it is sent as Authorization: Bearer <token>)' },
    { name: "metrics port out of range", input: { metrics: { enabled: true, port: 65536 } }, message: 'config: "metrics.port" must be 0 to 65535 (0: a free port)' },
    { name: "unknown metrics key", input: { metrics: { enabled: true, path: "/m" } }, message: 'config: unknown key "metrics.path" (accepted: enabled, token, port)' },
    { name: "backup without its folder", input: { backup: { keep: 3 } }, message: 'config: "backup.dir" is required' },
    { name: "backup keep of 0", input: { backup: { dir: "./backups", keep: 0 } }, message: 'config: "backup.keep" must be at least 1' },
    { name: "backup with a bad cron", input: { backup: { dir: "./backups", cron: "daily" } }, message: 'config: "backup.cron" must be a croner pattern such as "0 0 3 * * *" (seconds first, UTC)' },
    { name: "unknown nested key", input: { flocks: [{ identifier: "demo", nmae: "x" }] }, message: 'config: unknown key "flocks[0].nmae" (accepted: identifier, name)' },
    { name: "unknown key in a section", input: { webhooks: { retries: 3 } }, message: 'config: unknown key "webhooks.retries" (accepted: allowInsecureUrls, allowPrivateTargets, firstRetryDelayMs, retryWindowHours)' },
    { name: "wrong type of a section", input: { flocks: {} }, message: 'config: "flocks" must be a list, got Object' },
    { name: "wrong scalar type", input: { flocks: [{ identifier: 3 }] }, message: 'config: "flocks[0].identifier" must be a string, got 3' },
    { name: "missing required key", input: { flocks: [{ name: "x" }] }, message: 'config: "flocks[0].identifier" is required' },
    { name: "reserved flock identifier", input: { flocks: [{ identifier: "health" }] }, message: 'config: "flocks[0].identifier" is reserved for a fixed path (auth, health, ping, selfservice)' },
    { name: "bad flock identifier", input: { flocks: [{ identifier: "Demo" }] }, message: 'config: "flocks[0].identifier" must be a flock identifier: 1 to 63 of a-z 0-9 _ -, starting with a letter or digit' },
    { name: "short secret", input: { secret: "short" }, message: 'config: "secret" must be at least 16 characters' },
    { name: "secret not a string", input: { secret: 5 }, message: 'config: "secret" must be a string, got 5' },
    { name: "user without flocks", input: { users: [{ username: "a", password: "a password", flocks: [] }] }, message: 'config: "users[0].flocks" must name at least one flock' },
    { name: "user bad flock", input: { users: [{ username: "a", password: "a password", flocks: ["Bad!"] }] }, message: 'config: "users[0].flocks[0]" must be a flock identifier (a-z 0-9 _ -) or "*" for every flock' },
    { name: "username with a space", input: { users: [{ username: "two words", password: "a password", flocks: ["*"] }] }, message: 'config: "users[0].username" must not contain spaces or control characters' },
    { name: "user empty password", input: { users: [{ username: "a", password: "", flocks: ["*"] }] }, message: 'config: "users[0].password" must be at least 8 characters (the minimum password length)' },
    { name: "user password of 7 characters", input: { users: [{ username: "a", password: "1234567", flocks: ["*"] }] }, message: 'config: "users[0].password" must be at least 8 characters (the minimum password length)' },
    { name: "user password too long", input: { users: [{ username: "a", password: "x".repeat(1025), flocks: ["*"] }] }, message: 'config: "users[0].password" must be at most 1024 characters' },
    { name: "key lifetime zero", input: { auth: { keyTtlHours: 0 } }, message: 'config: "auth.keyTtlHours" must be at least 1' },
    { name: "key lifetime past ten years", input: { auth: { keyTtlHours: 87_601 } }, message: 'config: "auth.keyTtlHours" must be at most 87600 (ten years)' },
    { name: "unknown auth key", input: { auth: { sessionTtlHours: 1 } }, message: 'config: unknown key "auth.sessionTtlHours" (accepted: keyTtlHours)' },
    { name: "user bad role", input: { users: [{ username: "a", password: "a password", flocks: ["*"], role: "admin" }] }, message: 'config: "users[0].role" must be "core" or "self-service"' },
    { name: "duplicate flock", input: { flocks: [{ identifier: "a" }, { identifier: "a" }] }, message: 'config: "flocks[1].identifier" repeats an earlier entry (a)' },
    { name: "duplicate username ignoring case", input: { users: [{ username: "Ada", password: "a password", flocks: ["*"] }, { username: "ada", password: "b password", flocks: ["*"] }] }, message: 'config: "users[1].username" repeats an earlier entry (ada)' },
    { name: "bad cron", input: { scheduler: { cron: "every minute" } }, message: 'config: "scheduler.cron" must be a croner pattern such as "0 * * * * *"' },
    { name: "negative retry window", input: { webhooks: { retryWindowHours: -1 } }, message: 'config: "webhooks.retryWindowHours" must not be negative' },
    { name: "fractional retry delay", input: { webhooks: { firstRetryDelayMs: 1.5 } }, message: 'config: "webhooks.firstRetryDelayMs" must be an integer' },
    { name: "throttle zero", input: { throttle: { unattributedPerMinute: 0 } }, message: 'config: "throttle.unattributedPerMinute" must be at least 1' },
    { name: "lease too short", input: { workers: { leaseMs: 299 } }, message: 'config: "workers.leaseMs" must be at least 300 (milliseconds)' },
    { name: "lease too long", input: { workers: { leaseMs: 3_600_001 } }, message: 'config: "workers.leaseMs" must be at most 3600000 (an hour)' },
    { name: "lease not a number", input: { workers: { leaseMs: "60s" } }, message: 'config: "workers.leaseMs" must be a number, got "60s"' },
    { name: "unknown workers key", input: { workers: { lease: 5 } }, message: 'config: unknown key "workers.lease" (accepted: leaseMs)' },
    { name: "retention zero", input: { changes: { retentionDays: 0 } }, message: 'config: "changes.retentionDays" must be more than 0 (days; fractions allowed)' },
    { name: "retention not a number", input: { changes: { retentionDays: "7" } }, message: 'config: "changes.retentionDays" must be a number, got "7"' },
    { name: "retention unknown key", input: { changes: { keepDays: 7 } }, message: 'config: unknown key "changes.keepDays" (accepted: retentionDays, maxFeedsPerKey, maxFeedsPerFlock, maxBufferBytes)' },
    { name: "feeds per key zero", input: { changes: { maxFeedsPerKey: 0 } }, message: 'config: "changes.maxFeedsPerKey" must be at least 1' },
    { name: "feeds per flock not an integer", input: { changes: { maxFeedsPerFlock: 2.5 } }, message: 'config: "changes.maxFeedsPerFlock" must be an integer' },
    { name: "feeds per key too many", input: { changes: { maxFeedsPerKey: 1e6 } }, message: 'config: "changes.maxFeedsPerKey" must be at most 100000' },
    { name: "buffer too small", input: { changes: { maxBufferBytes: 100 } }, message: 'config: "changes.maxBufferBytes" must be at least 4096 (bytes)' },
    { name: "pool size zero", input: { database: { poolSize: 0 } }, message: 'config: "database.poolSize" must be at least 1' },
    { name: "pool size huge", input: { database: { poolSize: 5000 } }, message: 'config: "database.poolSize" must be at most 1000' },
    { name: "negative statement timeout", input: { database: { statementTimeoutMs: -5 } }, message: 'config: "database.statementTimeoutMs" must not be negative (0 = no timeout)' },
    { name: "fractional statement timeout", input: { database: { statementTimeoutMs: 1.5 } }, message: 'config: "database.statementTimeoutMs" must be an integer' },
    { name: "insecure flag not boolean", input: { webhooks: { allowInsecureUrls: "yes" } }, message: 'config: "webhooks.allowInsecureUrls" must be a boolean, got "yes"' },
    { name: "private-targets flag not boolean", input: { webhooks: { allowPrivateTargets: 1 } }, message: 'config: "webhooks.allowPrivateTargets" must be a boolean, got 1' },
    { name: "mail without smtp scheme", input: { mail: { smtp: "127.0.0.1:25", from: "a@b.org" } }, message: 'config: "mail.smtp" must be an smtp:// or smtps:// URL' },
    { name: "mail bad from", input: { mail: { smtp: "smtp://h", from: "nobody" } }, message: 'config: "mail.from" must be an email address' },
    { name: "template syntax", input: { flocks: [{ identifier: "demo" }], templates: [{ flock: "demo", name: "t", subject: "Hi <%= it.x", body: "" }] }, message: 'config: "templates[0].subject" is not a valid Eta template: unclosed tag at line 1 col 4:' },
    { name: "duplicate template", input: { templates: [{ flock: "d", name: "t", subject: "", body: "" }, { flock: "d", name: "t", subject: "", body: "" }] }, message: 'config: "templates[1].name" repeats an earlier entry (d/t)' },
    { name: "trigger with an unknown key", input: trigger({ to: "ops@example.org" }), message: 'config: unknown key "triggers[0].to" (accepted: flock, trigger, action, url, template, active, comment, conditional_templates)' },
    { name: "trigger active not boolean", input: trigger({ active: "yes" }), message: 'config: "triggers[0].active" must be a boolean, got "yes"' },
    { name: "trigger without action", input: { triggers: [{ flock: "demo", trigger: "contact_created" }] }, message: 'config: "triggers[0].action" is required' },
  ])("refuses $name", ({ input, message }) => {
    expect(() => parseConfig(input)).toThrow(new ConfigError(message));
  });

  // The trigger rules are core's validateTriggers; these check that its verdicts come out as
  // one config line naming the entry.
  it.each([
    { name: "an unknown action", input: trigger({ action: "send-sms" }), message: 'config: triggers[0] (contact_created, send-sms): unknown action "send-sms"' },
    { name: "an unknown trigger name", input: trigger({ trigger: "contact_creatd" }), message: 'config: triggers[0] (contact_creatd, send-json-webhook): unknown trigger "contact_creatd"' },
    { name: "a webhook without url", input: trigger({ url: null }), message: "config: triggers[0] (contact_created, send-json-webhook): url is required: a full https:// URL" },
    { name: "a webhook over http", input: trigger({ url: "http://x.org/h" }), message: 'config: triggers[0] (contact_created, send-json-webhook): url "http://x.org/h" must be a full https:// URL' },
    { name: "an unknown template", input: trigger({ template: "nope" }), message: 'config: triggers[0] (contact_created, send-json-webhook): template "nope" does not exist in flock demo' },
    {
      name: "a template of another flock",
      input: { ...trigger({ template: "welcome" }), templates: [{ flock: "other", name: "welcome", subject: "", body: "" }] },
      message: 'template "welcome" does not exist in flock demo',
    },
    {
      name: "two actions of one type",
      input: { triggers: [trigger({}).triggers[0], trigger({ url: "https://y.org/" }).triggers[0]] },
      message: "config: triggers[1] (contact_created, send-json-webhook): a second send-json-webhook action for trigger contact_created in flock demo",
    },
  ])("refuses a trigger with $name", ({ input, message }) => {
    expect(() => parseConfig(input)).toThrow(ConfigError);
    expect(() => parseConfig(input)).toThrow(message);
  });

  it.each([
    { name: "a token", metrics: { enabled: true, token: "0123456789abcdef" } },
    { name: "a port", metrics: { enabled: true, port: 9464 } },
    { name: "both", metrics: { enabled: true, port: 0, token: "0123456789abcdef" } },
    { name: "settings while disabled", metrics: { enabled: false, port: 9464 } },
  ])("takes metrics with $name", ({ metrics }) => {
    expect(parseConfig({ metrics }).metrics).toEqual(metrics);
  });

  it("keeps a trigger error on one line, listing every bad entry", () => {
    const input = { triggers: [trigger({ action: "x" }).triggers[0], trigger({ url: null }).triggers[0]] };
    let message = "";
    try {
      parseConfig(input);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^config: triggers\[0\] .*; triggers\[1\] /);
    expect(message).not.toContain("\n");
  });

  it("lets http:// webhook targets through with allowInsecureUrls", () => {
    const c = parseConfig({ webhooks: { allowInsecureUrls: true }, ...trigger({ url: "http://127.0.0.1:9/h" }) });
    expect(c.triggers[0]?.url).toBe("http://127.0.0.1:9/h");
  });

  it("refuses a literal private address in a webhook URL unless webhooks.allowPrivateTargets", () => {
    const input = trigger({ url: "https://10.1.2.3/h" });
    expect(() => parseConfig(input)).toThrow(
      'config: triggers[0] (contact_created, send-json-webhook): url "https://10.1.2.3/h" points at 10.1.2.3, a private address; webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set',
    );
    const c = parseConfig({ ...input, webhooks: { allowPrivateTargets: true } });
    expect(c.triggers[0]?.url).toBe("https://10.1.2.3/h");
    expect(c.webhooks.allowPrivateTargets).toBe(true);
    expect(parseConfig({}).webhooks.allowPrivateTargets).toBe(false);
  });

  it.each([
    { url: "https://localhost./", what: "localhost, a loopback name" },
    { url: "https://api.localhost./h", what: "api.localhost, a loopback name" },
    { url: "https://10.0.0.1./", what: "10.0.0.1, a private address" },
    { url: "https://10.0.0.1../h", what: "10.0.0.1, a private address" },
  ])("refuses the trailing-dot host of $url at start, as the name without the dot (issue 20, point 5)", ({ url, what }) => {
    expect(() => parseConfig(trigger({ url }))).toThrow(
      `config: triggers[0] (contact_created, send-json-webhook): url ${JSON.stringify(url)} points at ${what}; webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set`,
    );
    expect(parseConfig({ ...trigger({ url }), webhooks: { allowPrivateTargets: true } }).triggers[0]?.url).toBe(url);
  });

  it("accepts a fixed-address email trigger, the address in url", () => {
    const c = parseConfig({
      ...trigger({ action: "send-email-to-fixed-address", url: "mailto:ops@example.org", template: "welcome" }),
      templates: [{ flock: "demo", name: "welcome", subject: "Hi", body: "<%= it.data.first_name %>" }],
    });
    expect(c.triggers[0]).toMatchObject({ action: "send-email-to-fixed-address", url: "ops@example.org", template: "welcome" });
  });

  it("reports deprecated actions as warnings, not errors", () => {
    const c = parseConfig(trigger({ action: "send-webhook" }));
    expect(c.warnings).toEqual([expect.stringMatching(/^config: triggers\[0\] .*deprecated/)]);
  });
});

describe("loadConfig", () => {
  const dir = mkdtempSync(join(tmpdir(), "records-config-"));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("reads and parses a JSON file", () => {
    expect(loadConfig(file("ok.json", JSON.stringify({ ...FULL, users: [] }))).flocks[0]?.identifier).toBe("demo");
  });

  it("names a missing file", () => {
    const p = join(dir, "missing.json");
    expect(() => loadConfig(p)).toThrow(`config: cannot read ${p}: ENOENT`);
  });

  it("names invalid JSON", () => {
    const p = file("bad.json", "{ flocks: [] }");
    expect(() => loadConfig(p)).toThrow(new RegExp(`^config: ${p} is not valid JSON: `));
  });

  it("names the bad key of a file", () => {
    expect(() => loadConfig(file("key.json", '{"flocks":[{"identifier":"demo","nmae":"x"}]}'))).toThrow(
      'config: unknown key "flocks[0].nmae"',
    );
  });
});
