/**
 * @module testing/account-store
 * Conformance of `AccountStore`: users and keys read back as stored, revoking every key
 * of a user, the compare-and-set password rehash, and a revocation through one Storage
 * seen by another on the same database.
 */
import { expect } from "vitest";
import { stamp } from "./fixtures.js";
import type { Harness } from "./harness.js";

/** Declares the `AccountStore` tests. */
export function describeAccountStore(h: Harness): void {
  h.group("accounts", () => {
    const user = {
      username: "ada@example.org",
      passwordHash: "scrypt$abc$def",
      flocks: ["f1", "f2"],
      role: "core" as const,
      created: stamp(1),
    };

    h.it("putUser stores, getUser reads back, a second put replaces", async () => {
      const s = h.storage();
      await s.putUser(user);
      expect(await s.getUser(user.username)).toEqual(user);
      const replaced = { ...user, passwordHash: "new", flocks: ["*"], role: "self-service" as const };
      await s.putUser(replaced);
      expect(await s.getUser(user.username)).toEqual(replaced);
      expect(await s.getUser("nobody")).toBeUndefined();
    });

    h.it("users with no flocks keep an empty list", async () => {
      const s = h.storage();
      await s.putUser({ ...user, flocks: [] });
      expect((await s.getUser(user.username))?.flocks).toEqual([]);
    });

    h.it("api keys: put, get, delete", async () => {
      const s = h.storage();
      await s.putUser(user);
      const forever = { tokenHash: "a".repeat(64), username: user.username, created: stamp(1), expires: null };
      const expiring = { tokenHash: "b".repeat(64), username: user.username, created: stamp(1), expires: stamp(99) };
      await s.putApiKey(forever);
      await s.putApiKey(expiring);
      expect(await s.getApiKey(forever.tokenHash)).toEqual(forever);
      expect(await s.getApiKey(expiring.tokenHash)).toEqual(expiring);
      expect(await s.deleteApiKey(forever.tokenHash)).toBe(true);
      expect(await s.getApiKey(forever.tokenHash)).toBeUndefined();
      expect(await s.deleteApiKey(forever.tokenHash)).toBe(false);
      expect(await s.getApiKey(expiring.tokenHash)).toEqual(expiring);
      expect(await s.getApiKey("c".repeat(64))).toBeUndefined();
    });
  });

  h.group("revocation and rehash", () => {
    const user = { username: "ada", passwordHash: "scrypt$old", flocks: ["f1"], role: "core" as const, created: stamp(1) };
    const key = (n: number, username: string, expires: string | null = null) => ({
      tokenHash: String(n).padStart(64, "0"),
      username,
      created: stamp(1),
      expires,
    });

    h.it("deleteApiKeysOf removes every key of the user, expired ones too, and only theirs", async () => {
      const s = h.storage();
      for (const k of [key(1, "ada"), key(2, "ada", stamp(5)), key(3, "bob"), key(4, "ada ")]) await s.putApiKey(k);
      expect(await s.deleteApiKeysOf("ada")).toBe(2);
      expect(await s.getApiKey(key(1, "ada").tokenHash)).toBeUndefined();
      expect(await s.getApiKey(key(2, "ada").tokenHash)).toBeUndefined();
      expect(await s.getApiKey(key(3, "bob").tokenHash)).toEqual(key(3, "bob"));
      expect(await s.getApiKey(key(4, "ada ").tokenHash)).toEqual(key(4, "ada "));
      expect(await s.deleteApiKeysOf("ada")).toBe(0);
      expect(await s.deleteApiKeysOf("nobody")).toBe(0);
    });

    h.it("apiKeysOf lists every key of the user, expired ones too, oldest first, and only theirs", async () => {
      const s = h.storage();
      const later = { ...key(5, "ada", stamp(9)), created: stamp(3) };
      for (const k of [later, key(1, "ada"), key(2, "ada", stamp(5)), key(3, "bob"), key(4, "ada ")]) await s.putApiKey(k);
      expect(await s.apiKeysOf("ada")).toEqual([key(1, "ada"), key(2, "ada", stamp(5)), later]);
      expect(await s.apiKeysOf("nobody")).toEqual([]);
      await s.deleteApiKey(key(1, "ada").tokenHash);
      expect((await s.apiKeysOf("ada")).map((k) => k.tokenHash)).toEqual([key(2, "ada").tokenHash, later.tokenHash]);
    });

    h.it("replacePasswordHash sets the hash only while it is the expected one", async () => {
      const s = h.storage();
      await s.putUser(user);
      expect(await s.replacePasswordHash("ada", "scrypt$other", "scrypt$new")).toBe(false);
      expect(await s.getUser("ada")).toEqual(user);
      expect(await s.replacePasswordHash("ada", "scrypt$old", "scrypt$new")).toBe(true);
      expect(await s.getUser("ada")).toEqual({ ...user, passwordHash: "scrypt$new" });
      expect(await s.replacePasswordHash("ada", "scrypt$old", "scrypt$newer")).toBe(false);
      expect(await s.replacePasswordHash("nobody", "scrypt$old", "scrypt$new")).toBe(false);
      expect(await s.getUser("nobody")).toBeUndefined();
    });
  });

  h.shared("accounts across two Storages on one database", (open) => {
    h.it("deleteApiKeysOf through one removes the keys the other stored", async () => {
      const [a, b] = await open();
      await a.putApiKey({ tokenHash: "1".repeat(64), username: "ada", created: stamp(1), expires: null });
      expect(await b.deleteApiKeysOf("ada")).toBe(1);
      expect(await b.deleteApiKeysOf("ada")).toBe(0);
      expect(await a.deleteApiKeysOf("ada")).toBe(0);
    });
  });
}
