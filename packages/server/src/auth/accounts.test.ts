import { createFakeClock, createMemoryStorage, formatTimestamp, type Storage } from "@records-service/core";
import { beforeEach, describe, expect, it } from "vitest";
import { createUser, DISABLED_PASSWORD_HASH, login, normalizeUsername, revokeAccount } from "./accounts.js";
import { createPasswordHasher, hashPassword, verifyPassword } from "./passwords.js";
import { hashToken } from "./tokens.js";
import { CONFIG_DEFAULTS } from "../config/schema.js";

const clock = createFakeClock("2026-01-15T10:00:00.000Z");
const passwords = createPasswordHasher({ N: 16, r: 1, p: 1 });
const PW = "a long password";
/** The settings' default key lifetime, 30 days. */
const KEY_TTL_MS = CONFIG_DEFAULTS.auth.keyTtlHours * 3_600_000;
let storage: Storage;

const create = (u: Parameters<typeof createUser>[2]) => createUser(storage, clock, u, passwords);
const key = async (username: string, n: number) => {
  const tokenHash = hashToken(String(n));
  await storage.putApiKey({ tokenHash, username, created: formatTimestamp(clock.now()), expires: null });
  return tokenHash;
};

beforeEach(async () => {
  clock.set("2026-01-15T10:00:00.000Z");
  storage = createMemoryStorage();
  for (const identifier of ["demo", "club"]) await storage.createFlock({ identifier, name: identifier, created: formatTimestamp(clock.now()) });
});

describe("createUser: core users", () => {
  it("stores a normalized username, a scrypt hash at the hasher's cost (never the password) and the role", async () => {
    expect(await create({ username: " Ada@Example.org ", password: PW, flocks: ["demo"] })).toEqual({
      accounts: ["ada@example.org"],
      created: true,
      revoked: 0,
      disabledCore: false,
    });
    const user = await storage.getUser("ada@example.org");
    expect(user).toMatchObject({ username: "ada@example.org", flocks: ["demo"], role: "core", created: "2026-01-15T10:00:00.000000" });
    expect(user!.passwordHash).toMatch(/^scrypt\$16\$1\$1\$/);
    expect(user!.passwordHash).not.toContain(PW);
    expect(await verifyPassword(PW, user!.passwordHash)).toBe(true);
  });

  it("re-applying the same password keeps the hash, the creation time and every key", async () => {
    await create({ username: "ada", password: PW, flocks: ["demo"] });
    const first = await storage.getUser("ada");
    const k = await key("ada", 1);
    clock.advance(60_000);
    expect(await create({ username: "ada", password: PW, flocks: ["demo", "*"] })).toMatchObject({ created: false, revoked: 0 });
    expect(await storage.getUser("ada")).toEqual({ ...first, flocks: ["demo", "*"] });
    expect(await storage.getApiKey(k)).toBeDefined();
  });

  it("a new password replaces the hash and revokes every key of the user, and only theirs", async () => {
    await create({ username: "ada", password: PW, flocks: ["demo"] });
    await create({ username: "bob", password: PW, flocks: ["demo"] });
    const keys = [await key("ada", 1), await key("ada", 2)];
    const bobs = await key("bob", 3);
    const change = await create({ username: "ada", password: "another long password", flocks: ["demo"] });
    expect(change).toMatchObject({ created: false, revoked: 2 });
    expect(await verifyPassword("another long password", (await storage.getUser("ada"))!.passwordHash)).toBe(true);
    for (const k of keys) expect(await storage.getApiKey(k)).toBeUndefined();
    expect(await storage.getApiKey(bobs)).toBeDefined();
  });

  it("the same password stored at another cost is rehashed at the current one, keeping the keys", async () => {
    await storage.putUser({ username: "ada", passwordHash: await hashPassword(PW, { N: 8, r: 1, p: 1 }), flocks: ["demo"], role: "core", created: "x" });
    const k = await key("ada", 1);
    expect(await create({ username: "ada", password: PW, flocks: ["demo"] })).toMatchObject({ revoked: 0 });
    expect((await storage.getUser("ada"))!.passwordHash).toMatch(/^scrypt\$16\$1\$1\$/);
    expect(await storage.getApiKey(k)).toBeDefined();
  });

  it.each([
    ["empty username", { username: "  ", password: PW, flocks: ["demo"] }, "invalid username"],
    ["username with a space", { username: "a b", password: PW, flocks: ["demo"] }, "invalid username"],
    ["username with a control character", { username: "a\u0000b", password: PW, flocks: ["demo"] }, "invalid username"],
    ["username too long", { username: "a".repeat(255), password: PW, flocks: ["demo"] }, "invalid username"],
    ["empty password", { username: "ada", password: "", flocks: ["demo"] }, "invalid password"],
    ["password of 7 characters", { username: "ada", password: "1234567", flocks: ["demo"] }, "invalid password"],
    ["password too long", { username: "ada", password: "x".repeat(1025), flocks: ["demo"] }, "invalid password"],
    ["no flocks", { username: "ada", password: PW, flocks: [] }, "invalid flocks"],
    ["flock not a string", { username: "ada", password: PW, flocks: [1] }, "invalid flocks"],
    ["unknown flock", { username: "ada", password: PW, flocks: ["demo", "ghost"] }, "unknown flock"],
    ["unknown role", { username: "ada", password: PW, flocks: ["demo"], role: "root" }, "invalid role"],
    ["self-service with every flock", { username: "ada", password: PW, flocks: ["*"], role: "self-service" }, "invalid flocks"],
  ])("refuses %s with a 400 and stores nothing", async (_name, input, message) => {
    await expect(create(input as never)).rejects.toMatchObject({ code: "bad_request", message });
    expect(await storage.getUser("ada")).toBeUndefined();
    expect(await storage.getUser("demo ada")).toBeUndefined();
  });

  it("names the minimum length when refusing a short password, and takes 8 characters", async () => {
    await expect(create({ username: "ada", password: "1234567", flocks: ["demo"] })).rejects.toMatchObject({
      detail: expect.stringContaining("minimum password length is 8"),
    });
    await expect(create({ username: "ada", password: "12345678", flocks: ["demo"] })).resolves.toMatchObject({ created: true });
  });
});

describe("createUser: self-service users", () => {
  it("makes one member account per flock, in each flock's namespace, and no core account", async () => {
    const change = await create({ username: "Ada@Example.org", password: PW, flocks: ["demo", "club"], role: "self-service" });
    expect(change).toEqual({ accounts: ["demo ada@example.org", "club ada@example.org"], created: true, revoked: 0, disabledCore: false });
    expect(await storage.getUser("demo ada@example.org")).toMatchObject({ flocks: ["demo"], role: "self-service" });
    expect(await storage.getUser("club ada@example.org")).toMatchObject({ flocks: ["club"], role: "self-service" });
    expect(await storage.getUser("ada@example.org")).toBeUndefined();
  });

  it("disables a core account of the same username: its keys are revoked and no password matches", async () => {
    await create({ username: "ada", password: PW, flocks: ["*"] });
    const k = await key("ada", 1);
    const change = await create({ username: "ada", password: PW, flocks: ["demo"], role: "self-service" });
    expect(change).toMatchObject({ disabledCore: true, revoked: 1 });
    expect(await storage.getApiKey(k)).toBeUndefined();
    expect(await storage.getUser("ada")).toMatchObject({ role: "core", flocks: [], passwordHash: DISABLED_PASSWORD_HASH });
    expect(await login(storage, clock, "ada", PW, { passwords, keyTtlMs: KEY_TTL_MS })).toBeUndefined();
    // Applying the same declaration again changes nothing more.
    expect(await create({ username: "ada", password: PW, flocks: ["demo"], role: "self-service" })).toMatchObject({ disabledCore: false, revoked: 0 });
  });
});

describe("revokeAccount", () => {
  it("ends every key of the account and says how many; undefined for an unknown account", async () => {
    await create({ username: "ada", password: PW, flocks: ["demo"] });
    await key("ada", 1);
    await key("ada", 2);
    expect(await revokeAccount(storage, "ada")).toBe(2);
    expect(await revokeAccount(storage, "ada")).toBe(0);
    expect(await revokeAccount(storage, "nobody")).toBeUndefined();
  });
});

describe("login", () => {
  beforeEach(async () => {
    await create({ username: "ada@example.org", password: PW, flocks: ["demo"] });
  });

  it("issues a key whose hash (only) is stored, expiring after the key lifetime", async () => {
    const k = await login(storage, clock, "ada@example.org", PW, { passwords, keyTtlMs: KEY_TTL_MS });
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(await storage.getApiKey(k!)).toBeUndefined();
    expect(await storage.getApiKey(hashToken(k!))).toMatchObject({ username: "ada@example.org", expires: "2026-02-14T10:00:00.000000" });
    const short = await login(storage, clock, "ada@example.org", PW, { passwords, keyTtlMs: 3_600_000 });
    expect((await storage.getApiKey(hashToken(short!)))?.expires).toBe("2026-01-15T11:00:00.000000");
  });

  it("matches the username without case or surrounding spaces, with a different key each time", async () => {
    const a = await login(storage, clock, " ADA@example.ORG", PW, { passwords, keyTtlMs: KEY_TTL_MS });
    const b = await login(storage, clock, "ada@example.org", PW, { passwords, keyTtlMs: KEY_TTL_MS });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  it("never logs a member account in, even with its stored key as username", async () => {
    await create({ username: "ada@example.org", password: "a member password", flocks: ["demo"], role: "self-service" });
    expect(await login(storage, clock, "demo ada@example.org", "a member password", { passwords, keyTtlMs: KEY_TTL_MS })).toBeUndefined();
  });

  it.each([
    ["wrong password", "ada@example.org", "A LONG PASSWORD"],
    ["unknown user", "bob@example.org", PW],
    ["empty password", "ada@example.org", ""],
    ["huge username", "a".repeat(10_000), PW],
    ["huge password", "ada@example.org", "p".repeat(10_000)],
    ["the right password with more after the longest accepted", "ada@example.org", PW + " ".repeat(1024)],
  ])("returns undefined for %s", async (_name, username, password) => {
    expect(await login(storage, clock, username, password, { passwords, keyTtlMs: KEY_TTL_MS })).toBeUndefined();
  });
});

describe("normalizeUsername", () => {
  it.each([
    [" Ada@Example.ORG ", "ada@example.org"],
    ["bob", "bob"],
  ])("%j -> %j", (input, expected) => expect(normalizeUsername(input)).toBe(expected));
});
