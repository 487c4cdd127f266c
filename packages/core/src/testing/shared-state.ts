/**
 * @module storage/conformance-limits
 * Conformance tests of the account-protection members: revoking every key of a user,
 * the compare-and-set password rehash, and the keyed limit rows (`updateLimit`) that the
 * login guard keeps in the database, including two Storages opened on one database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { stamp, type Harness } from "./fixtures.js";
import type { Storage } from "../storage/storage.js";

/** Opens two Storages over one fresh database, as two processes would. */
export type OpenShared = () => Promise<[Storage, Storage]> | [Storage, Storage];

/** Declares the revocation, rehash and limit tests. */
export function describeAccountProtection(h: Harness): void {
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

  h.group("limits", () => {
    const T = 1_800_000_000_000;

    h.it("a missing key reads undefined; a returned row is stored and read back", async () => {
      const s = h.storage();
      const seen: (string | undefined)[] = [];
      expect(await s.updateLimit("k", T, (v) => (seen.push(v), undefined))).toBeUndefined();
      expect(await s.updateLimit("k", T, (v) => (seen.push(v), { value: "one", expiresAt: T + 1000 }))).toBe("one");
      expect(await s.updateLimit("k", T + 1, (v) => (seen.push(v), undefined))).toBe("one");
      expect(seen).toEqual([undefined, undefined, "one"]);
    });

    h.it("undefined leaves the row, null deletes it, a new row replaces it", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "a", expiresAt: T + 1000 }));
      expect(await s.updateLimit("k", T, () => ({ value: "b", expiresAt: T + 2000 }))).toBe("b");
      expect(await s.updateLimit("k", T + 1500, () => undefined)).toBe("b");
      expect(await s.updateLimit("k", T, () => null)).toBeUndefined();
      expect(await s.updateLimit("k", T, (v) => (v === undefined ? undefined : { value: "x", expiresAt: T + 1 }))).toBeUndefined();
    });

    h.it("a row counts as absent from its expiry time on", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "v", expiresAt: T + 10 }));
      expect(await s.updateLimit("k", T + 9, (v) => (expect(v).toBe("v"), undefined))).toBe("v");
      expect(await s.updateLimit("k", T + 10, (v) => (expect(v).toBeUndefined(), undefined))).toBeUndefined();
      // An expired row, once rewritten, is a fresh row.
      expect(await s.updateLimit("k", T + 10, (v) => ({ value: v ?? "fresh", expiresAt: T + 100 }))).toBe("fresh");
    });

    h.it("calls the function exactly once per update; keys are independent and case-sensitive", async () => {
      const s = h.storage();
      let calls = 0;
      await s.updateLimit("login:a", T, () => (calls++, { value: "a", expiresAt: T + 1000 }));
      await s.updateLimit("login:A", T, () => (calls++, { value: "A", expiresAt: T + 1000 }));
      expect(calls).toBe(2);
      expect(await s.updateLimit("login:a", T, () => undefined)).toBe("a");
      expect(await s.updateLimit("login:A", T, () => undefined)).toBe("A");
      expect(await s.updateLimit("login:b", T, () => undefined)).toBeUndefined();
    });

    h.it("a function that throws rejects the call and changes nothing", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "kept", expiresAt: T + 1000 }));
      await expect(
        s.updateLimit("k", T, () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await s.updateLimit("k", T, () => undefined)).toBe("kept");
    });

    h.it("concurrent read-modify-writes of one key all count", async () => {
      const s = h.storage();
      const inc = () => s.updateLimit("n", T, (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: T + 60_000 }));
      await Promise.all(Array.from({ length: 40 }, inc));
      expect(await s.updateLimit("n", T, () => undefined)).toBe("40");
    });

    h.it("rows are purged by expiry, never by count: many new keys evict nothing", async () => {
      const s = h.storage();
      await s.updateLimit("victim", T, () => ({ value: "locked", expiresAt: T + 3_600_000 }));
      for (let i = 0; i < 3000; i++) {
        await s.updateLimit(`flood:${i}`, T + i * 1000, () => ({ value: "x", expiresAt: T + i * 1000 + 500 }));
      }
      // Purges have run (the flood spans 50 minutes); the unexpired row is still there.
      expect(await s.updateLimit("victim", T + 3_000_000, () => undefined)).toBe("locked");
      expect(await s.updateLimit("flood:2999", T + 3_000_000, () => undefined)).toBeUndefined();
    });
  });
}

/**
 * Declares the tests of two Storages on one database (as two processes): limit rows and
 * revocations made through one are seen by the other.
 */
export function describeSharedDatabase(name: string, openShared: OpenShared): void {
  describe(`Storage conformance: ${name}: two Storages on one database`, () => {
    const open = sharedOpener(openShared);
    const T = 1_800_000_000_000;

    it("limit rows are shared: increments through both add up, and each sees the other's", async () => {
      const [a, b] = await open();
      const inc = (s: Storage) => s.updateLimit("failures", T, (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: T + 60_000 }));
      for (let i = 0; i < 5; i++) await inc(i % 2 === 0 ? a : b);
      expect(await a.updateLimit("failures", T, () => undefined)).toBe("5");
      expect(await b.updateLimit("failures", T, () => undefined)).toBe("5");
      await Promise.all([inc(a), inc(b), inc(a), inc(b)]);
      expect(await b.updateLimit("failures", T, () => undefined)).toBe("9");
      await a.updateLimit("failures", T, () => null);
      expect(await b.updateLimit("failures", T, () => undefined)).toBeUndefined();
    });

    it("deleteApiKeysOf through one removes the keys the other stored", async () => {
      const [a, b] = await open();
      await a.putApiKey({ tokenHash: "1".repeat(64), username: "ada", created: stamp(1), expires: null });
      expect(await b.deleteApiKeysOf("ada")).toBe(1);
      expect(await b.deleteApiKeysOf("ada")).toBe(0);
      expect(await a.deleteApiKeysOf("ada")).toBe(0);
    });
  });
}

/**
 * Opens a pair per call and closes every pair after each test (call inside a `describe`).
 *
 * @example
 * const open = sharedOpener(openShared); const [a, b] = await open();
 */
export function sharedOpener(openShared: OpenShared): () => Promise<[Storage, Storage]> {
  const opened: Storage[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });
  return async () => {
    const pair = await openShared();
    opened.push(...pair);
    return pair;
  };
}
