import { createFakeClock, createMemoryStorage, type Storage } from "@records-service/core";
import { beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/passwords.js";
import { parseConfig } from "../config.js";
import { applyConfig, SECRET_SETTING } from "./apply.js";
import { ConfigError } from "./issues.js";

const CONFIG = {
  secret: "a-long-enough-secret-value",
  flocks: [
    { identifier: "demo", name: "Demo Society" },
    { identifier: "club" },
  ],
  users: [
    { username: "Ada@Example.org", password: "pw", flocks: ["demo"] },
    { username: "member", password: "m", flocks: ["club"], role: "self-service" },
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
    expect(applied).toEqual({ secret: CONFIG.secret, flocksCreated: ["demo", "club"], flocksRenamed: [] });
    expect(await storage.listFlocks()).toEqual([
      { identifier: "club", name: "club", created: "2026-01-15T10:00:00.000000" },
      { identifier: "demo", name: "Demo Society", created: "2026-01-15T10:00:00.000000" },
    ]);
    const ada = await storage.getUser("ada@example.org");
    expect(ada).toMatchObject({ username: "ada@example.org", flocks: ["demo"], role: "core" });
    expect(await verifyPassword("pw", ada!.passwordHash)).toBe(true);
    expect(await storage.getUser("member")).toMatchObject({ role: "self-service", flocks: ["club"] });
    expect(await storage.getSetting(SECRET_SETTING)).toBe(CONFIG.secret);
  });

  it("creates nothing twice and leaves every row as it was", async () => {
    const config = parseConfig(CONFIG);
    await applyConfig(storage, clock, config);
    const before = { flocks: await storage.listFlocks(), ada: await storage.getUser("ada@example.org") };
    clock.advance(60_000);
    const again = await applyConfig(storage, clock, config);
    expect(again).toEqual({ secret: CONFIG.secret, flocksCreated: [], flocksRenamed: [] });
    expect(await storage.listFlocks()).toEqual(before.flocks);
    expect(await storage.getUser("ada@example.org")).toEqual(before.ada);
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

  it("replaces a user's password, flocks and role, keeping the creation time", async () => {
    await applyConfig(storage, clock, parseConfig(CONFIG));
    const created = (await storage.getUser("member"))!.created;
    clock.advance(60_000);
    await applyConfig(storage, clock, parseConfig({ users: [{ username: "member", password: "new", flocks: ["demo", "club"] }] }));
    const member = (await storage.getUser("member"))!;
    expect(member).toMatchObject({ flocks: ["demo", "club"], role: "core", created });
    expect(await verifyPassword("new", member.passwordHash)).toBe(true);
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
    await applyConfig(storage, clock, parseConfig({ users: [{ username: "u", password: "p", flocks: ["old", "*"] }] }));
    expect((await storage.getUser("u"))?.flocks).toEqual(["old", "*"]);
  });

  it.each([
    {
      name: "a user's unknown flock",
      config: { users: [{ username: "u", password: "p", flocks: ["*", "nope"] }] },
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
