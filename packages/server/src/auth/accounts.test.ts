import { createFakeClock, createMemoryStorage, formatTimestamp, type Storage } from "@records-service/core";
import { beforeEach, describe, expect, it } from "vitest";
import { createUser, login, normalizeUsername } from "./accounts.js";
import { verifyPassword } from "./passwords.js";
import { hashToken } from "./tokens.js";

const clock = createFakeClock("2026-01-15T10:00:00.000Z");
let storage: Storage;

beforeEach(async () => {
  storage = createMemoryStorage();
  await storage.createFlock({ identifier: "demo", name: "Demo", created: formatTimestamp(clock.now()) });
});

describe("createUser", () => {
  it("stores a normalized username, a scrypt hash (never the password) and the role", async () => {
    await createUser(storage, clock, { username: " Ada@Example.org ", password: "pw", flocks: ["demo"] });
    const user = await storage.getUser("ada@example.org");
    expect(user).toMatchObject({ username: "ada@example.org", flocks: ["demo"], role: "core", created: "2026-01-15T10:00:00.000000" });
    expect(user!.passwordHash).not.toContain("pw");
    expect(await verifyPassword("pw", user!.passwordHash)).toBe(true);
  });

  it("replaces an existing user, keeping its creation time and (same password) its hash", async () => {
    await createUser(storage, clock, { username: "ada", password: "pw", flocks: ["demo"] });
    const first = await storage.getUser("ada");
    clock.advance(60_000);
    await createUser(storage, clock, { username: "ada", password: "pw", flocks: ["demo", "*"], role: "self-service" });
    const second = await storage.getUser("ada");
    expect(second).toMatchObject({ flocks: ["demo", "*"], role: "self-service", created: first!.created, passwordHash: first!.passwordHash });
    await createUser(storage, clock, { username: "ada", password: "new", flocks: ["demo"] });
    expect(await verifyPassword("new", (await storage.getUser("ada"))!.passwordHash)).toBe(true);
  });

  it.each([
    ["empty username", { username: "  ", password: "pw", flocks: ["demo"] }, "invalid username"],
    ["username with a space", { username: "a b", password: "pw", flocks: ["demo"] }, "invalid username"],
    ["username with a control character", { username: "a\u0000b", password: "pw", flocks: ["demo"] }, "invalid username"],
    ["username too long", { username: "a".repeat(255), password: "pw", flocks: ["demo"] }, "invalid username"],
    ["empty password", { username: "ada", password: "", flocks: ["demo"] }, "invalid password"],
    ["password too long", { username: "ada", password: "x".repeat(1025), flocks: ["demo"] }, "invalid password"],
    ["no flocks", { username: "ada", password: "pw", flocks: [] }, "invalid flocks"],
    ["flock not a string", { username: "ada", password: "pw", flocks: [1] }, "invalid flocks"],
    ["unknown flock", { username: "ada", password: "pw", flocks: ["demo", "ghost"] }, "unknown flock"],
    ["unknown role", { username: "ada", password: "pw", flocks: ["demo"], role: "root" }, "invalid role"],
  ])("refuses %s with a 400 and stores nothing", async (_name, input, message) => {
    await expect(createUser(storage, clock, input as never)).rejects.toMatchObject({ code: "bad_request", message });
    expect(await storage.getUser("ada")).toBeUndefined();
  });
});

describe("login", () => {
  beforeEach(async () => {
    await createUser(storage, clock, { username: "ada@example.org", password: "pw", flocks: ["demo"] });
  });

  it("issues a key whose hash (only) is stored for the user", async () => {
    const key = await login(storage, clock, "ada@example.org", "pw");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await storage.getApiKey(key!)).toBeUndefined();
    expect(await storage.getApiKey(hashToken(key!))).toMatchObject({ username: "ada@example.org", expires: null });
  });

  it("matches the username without case or surrounding spaces", async () => {
    expect(await login(storage, clock, " ADA@example.ORG", "pw")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("issues a different key on every login", async () => {
    const a = await login(storage, clock, "ada@example.org", "pw");
    const b = await login(storage, clock, "ada@example.org", "pw");
    expect(a).not.toBe(b);
  });

  it.each([
    ["wrong password", "ada@example.org", "PW"],
    ["unknown user", "bob@example.org", "pw"],
    ["empty password", "ada@example.org", ""],
    ["huge username", "a".repeat(10_000), "pw"],
    ["huge password", "ada@example.org", "p".repeat(10_000)],
  ])("returns undefined for %s", async (_name, username, password) => {
    expect(await login(storage, clock, username, password)).toBeUndefined();
  });
});

describe("normalizeUsername", () => {
  it.each([
    [" Ada@Example.ORG ", "ada@example.org"],
    ["bob", "bob"],
  ])("%j -> %j", (input, expected) => expect(normalizeUsername(input)).toBe(expected));
});
