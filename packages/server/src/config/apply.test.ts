import { createFakeClock, createMemoryStorage, type Storage } from "@records-service/core";
import { beforeEach, describe, expect, it } from "vitest";
import { DISABLED_PASSWORD_HASH } from "../auth/accounts.js";
import { createPasswordHasher, verifyPassword } from "../auth/passwords.js";
import { hashToken } from "../auth/tokens.js";
import { parseConfig, type Config } from "../config.js";
import { applyConfig as apply, SECRET_SETTING } from "./apply.js";
import { ConfigError } from "./issues.js";

const passwords = createPasswordHasher({ N: 16, r: 1, p: 1 });
const applyConfig = (storage: Storage, clock: ReturnType<typeof createFakeClock>, config: Config) => apply(storage, clock, config, passwords);

const CONFIG = {
  secret: "a-long-enough-secret-value",
  flocks: [
    { identifier: "demo", name: "Demo Society" },
    { identifier: "club" },
  ],
  users: [
    { username: "Ada@Example.org", password: "ada's password", flocks: ["demo"] },
    { username: "member", password: "member's password", flocks: ["club"], role: "self-service" },
  ],
};

describe("applyConfig", () => {
  let storage: Storage;
  const clock = createFakeClock("2026-01-15T10:00:00.000Z");
  beforeEach(() => {
    storage = createMemoryStorage();
  });

  it("creates the flocks, users and secret", async () => {
    const applied = await applyConfig(storage, clock, parseConfig(CONFIG));
    expect(applied).toEqual({ secret: CONFIG.secret, flocksCreated: ["demo", "club"], flocksRenamed: [], secretChanged: false });
    expect(await storage.listFlocks()).toEqual([
      { identifier: "club", name: "club", created: "2026-01-15T10:00:00.000000" },
      { identifier: "demo", name: "Demo Society", created: "2026-01-15T10:00:00.000000" },
    ]);
    const ada = await storage.getUser("ada@example.org");
    expect(ada).toMatchObject({ username: "ada@example.org", flocks: ["demo"], role: "core" });
    expect(await verifyPassword("ada's password", ada!.passwordHash)).toBe(true);
    // A self-service entry is a member account of each of its flocks, not a core user.
    expect(await storage.getUser("club member")).toMatchObject({ role: "self-service", flocks: ["club"] });
    expect(await storage.getUser("member")).toBeUndefined();
    expect(await storage.getSetting(SECRET_SETTING)).toBe(CONFIG.secret);
  });

  it("creates nothing twice, leaves every row as it was and logs no one out", async () => {
    const config = parseConfig(CONFIG);
    await applyConfig(storage, clock, config);
    const before = { flocks: await storage.listFlocks(), ada: await storage.getUser("ada@example.org"), member: await storage.getUser("club member") };
    await storage.putApiKey({ tokenHash: hashToken("ada"), username: "ada@example.org", created: "x", expires: null });
    await storage.putApiKey({ tokenHash: hashToken("member"), username: "club member", created: "x", expires: null });
    clock.advance(60_000);
    const again = await applyConfig(storage, clock, config);
    expect(again).toEqual({ secret: CONFIG.secret, flocksCreated: [], flocksRenamed: [], secretChanged: false });
    expect(await storage.listFlocks()).toEqual(before.flocks);
    expect(await storage.getUser("ada@example.org")).toEqual(before.ada);
    expect(await storage.getUser("club member")).toEqual(before.member);
    expect(await storage.getApiKey(hashToken("ada"))).toBeDefined();
    expect(await storage.getApiKey(hashToken("member"))).toBeDefined();
  });

  it("renames a flock whose configured name changed, and only then", async () => {
    await applyConfig(storage, clock, parseConfig(CONFIG));
    const renamed = parseConfig({ flocks: [{ identifier: "demo", name: "New Name" }, { identifier: "club" }] });
    expect((await applyConfig(storage, clock, renamed)).flocksRenamed).toEqual(["demo"]);
    expect((await storage.getFlock("demo"))?.name).toBe("New Name");
    // A flock listed without a name keeps the name it has.
    await storage.renameFlock("club", "The Club");
    await applyConfig(storage, clock, renamed);
    expect((await storage.getFlock("club"))?.name).toBe("The Club");
  });

  it("replaces a user's password and flocks, keeping the creation time; the new password revokes its keys", async () => {
    await applyConfig(storage, clock, parseConfig(CONFIG));
    const created = (await storage.getUser("ada@example.org"))!.created;
    await storage.putApiKey({ tokenHash: hashToken("old"), username: "ada@example.org", created: "x", expires: null });
    clock.advance(60_000);
    await applyConfig(storage, clock, parseConfig({ users: [{ username: "ada@example.org", password: "a new password", flocks: ["demo", "club"] }] }));
    const ada = (await storage.getUser("ada@example.org"))!;
    expect(ada).toMatchObject({ flocks: ["demo", "club"], role: "core", created });
    expect(await verifyPassword("a new password", ada.passwordHash)).toBe(true);
    expect(await storage.getApiKey(hashToken("old"))).toBeUndefined();
  });

  it("a new password of a self-service entry ends that member account's sessions", async () => {
    await applyConfig(storage, clock, parseConfig(CONFIG));
    await storage.putApiKey({ tokenHash: hashToken("session"), username: "club member", created: "x", expires: null });
    await applyConfig(storage, clock, parseConfig({ users: [{ ...CONFIG.users[1]!, password: "another password" }] }));
    expect(await storage.getApiKey(hashToken("session"))).toBeUndefined();
  });

  it("a username turned self-service disables its core account; turned core, it is a new core account", async () => {
    await applyConfig(storage, clock, parseConfig(CONFIG));
    await storage.putApiKey({ tokenHash: hashToken("staff"), username: "ada@example.org", created: "x", expires: null });
    await applyConfig(storage, clock, parseConfig({ users: [{ ...CONFIG.users[0]!, role: "self-service" }] }));
    expect(await storage.getUser("ada@example.org")).toMatchObject({ role: "core", flocks: [], passwordHash: DISABLED_PASSWORD_HASH });
    expect(await storage.getApiKey(hashToken("staff"))).toBeUndefined();
    expect(await storage.getUser("demo ada@example.org")).toMatchObject({ role: "self-service", flocks: ["demo"] });
    // Back to core: the core account works again; the member account stays a member account.
    await applyConfig(storage, clock, parseConfig({ users: [CONFIG.users[0]!] }));
    expect(await storage.getUser("ada@example.org")).toMatchObject({ role: "core", flocks: ["demo"] });
    expect(await storage.getUser("demo ada@example.org")).toMatchObject({ role: "self-service" });
  });

  it("refuses a self-service entry with every flock, naming the entry", async () => {
    await expect(
      applyConfig(storage, clock, parseConfig({ users: [{ username: "m", password: "a password", flocks: ["*"], role: "self-service" }] })),
    ).rejects.toThrow(new ConfigError('config: "users[0]" a self-service user is a member of named flocks; "*" (every flock) is for core users'));
  });

  it("generates a secret once when the config has none", async () => {
    const first = await applyConfig(storage, clock, parseConfig({}));
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await applyConfig(storage, clock, parseConfig({}))).secret).toBe(first.secret);
  });

  it("a configured secret replaces the stored one (rotation), and is kept without a config", async () => {
    const generated = (await applyConfig(storage, clock, parseConfig({}))).secret;
    expect((await applyConfig(storage, clock, parseConfig({ secret: "another-secret-of-16+" }))).secret).toBe("another-secret-of-16+");
    expect(await storage.getSetting("secret")).toBe("another-secret-of-16+");
    expect((await applyConfig(storage, clock, parseConfig({}))).secret).not.toBe(generated);
    expect((await applyConfig(storage, clock, parseConfig({}))).secret).toBe("another-secret-of-16+");
  });

  it("accepts references to flocks that are only in the database", async () => {
    await storage.createFlock({ identifier: "old", name: "Old", created: "2026-01-01T00:00:00.000000" });
    await applyConfig(storage, clock, parseConfig({ users: [{ username: "u", password: "a password", flocks: ["old", "*"] }] }));
    expect((await storage.getUser("u"))?.flocks).toEqual(["old", "*"]);
  });

  it.each([
    {
      name: "a user's unknown flock",
      config: { users: [{ username: "u", password: "a password", flocks: ["*", "nope"] }] },
      message: 'config: "users[0].flocks[1]" names flock "nope", which is neither in "flocks" nor in the database',
    },
    {
      name: "a template's unknown flock",
      config: { templates: [{ flock: "nope", name: "t", subject: "", body: "" }] },
      message: 'config: "templates[0].flock" names flock "nope", which is neither in "flocks" nor in the database',
    },
    {
      name: "a trigger's unknown flock",
      config: { triggers: [{ flock: "nope", trigger: "contact_created", action: "send-json-webhook", url: "https://x.org/" }] },
      message: 'config: "triggers[0].flock" names flock "nope", which is neither in "flocks" nor in the database',
    },
  ])("refuses $name and writes nothing", async ({ config, message }) => {
    const parsed = parseConfig(config);
    await expect(applyConfig(storage, clock, parsed)).rejects.toThrow(new ConfigError(message));
    expect(await storage.listFlocks()).toEqual([]);
  });
});
