import { createMemoryStorage, type Storage } from "@records-service/core";
import { beforeEach, describe, expect, it } from "vitest";
import { accountKeyOf, checkCredentials, type AccountRef } from "./credentials.js";
import { createPasswordHasher, type PasswordHasher } from "./passwords.js";

const real = createPasswordHasher({ N: 16, r: 1, p: 1 });
const PW = "a long password";
let storage: Storage;
let calls: string[];

/** The real hasher, recording which check ran and on how long a password. */
const recording: PasswordHasher = {
  ...real,
  verify: async (password, stored) => (calls.push(`verify ${password.length}`), real.verify(password, stored)),
  verifyDummy: async (password) => (calls.push(`dummy ${password.length}`), real.verifyDummy(password)),
};

beforeEach(async () => {
  storage = createMemoryStorage();
  calls = [];
  const passwordHash = await real.hash(PW);
  await storage.putUser({ username: "ada@example.org", passwordHash, flocks: ["demo"], role: "core", created: "x" });
  await storage.putUser({ username: "demo bob@example.org", passwordHash, flocks: ["demo"], role: "self-service", created: "x" });
});

describe("checkCredentials", () => {
  it.each([
    { name: "the right password", ref: { kind: "core", username: "Ada@Example.org" }, password: PW, ok: true, call: `verify ${PW.length}` },
    { name: "a wrong password", ref: { kind: "core", username: "ada@example.org" }, password: "wrong", ok: false, call: "verify 5" },
    { name: "an overlong password", ref: { kind: "core", username: "ada@example.org" }, password: PW + "x".repeat(5000), ok: false, call: "verify 1024" },
    { name: "an unknown user", ref: { kind: "core", username: "nobody" }, password: PW, ok: false, call: `dummy ${PW.length}` },
    { name: "an unknown user with an overlong password", ref: { kind: "core", username: "nobody" }, password: "x".repeat(5000), ok: false, call: "dummy 1024" },
    { name: "an overlong username", ref: { kind: "core", username: "a".repeat(10_000) }, password: PW, ok: false, call: `dummy ${PW.length}` },
    { name: "a member's stored key at the core path", ref: { kind: "core", username: "demo bob@example.org" }, password: PW, ok: false, call: `dummy ${PW.length}` },
    { name: "a member at its flock", ref: { kind: "member", flock: "demo", email: "BOB@example.org" }, password: PW, ok: true, call: `verify ${PW.length}` },
    { name: "a member at another flock", ref: { kind: "member", flock: "club", email: "bob@example.org" }, password: PW, ok: false, call: `dummy ${PW.length}` },
    { name: "a core user at the member path", ref: { kind: "member", flock: "demo", email: "ada@example.org" }, password: PW, ok: false, call: `dummy ${PW.length}` },
  ] as { name: string; ref: AccountRef; password: string; ok: boolean; call: string }[])(
    "$name: ok $ok, after exactly one scrypt check ($call)",
    async ({ ref, password, ok, call }) => {
      expect((await checkCredentials(storage, recording, ref, password)).ok).toBe(ok);
      expect(calls).toEqual([call]);
    },
  );

  it("finds no account for a row whose role disagrees with the path", async () => {
    await storage.putUser({ username: "carol", passwordHash: await real.hash(PW), flocks: ["demo"], role: "self-service", created: "x" });
    expect(await checkCredentials(storage, recording, { kind: "core", username: "carol" }, PW)).toEqual({ ok: false, user: undefined });
  });
});

describe("accountKeyOf", () => {
  it.each([
    [{ kind: "core", username: " Ada@Example.org " }, "ada@example.org"],
    [{ kind: "member", flock: "demo", email: "Ada@Example.org" }, "demo ada@example.org"],
    [{ kind: "core", username: "demo ada@example.org" }, undefined],
    [{ kind: "member", flock: "demo", email: "a b@example.org" }, undefined],
    [{ kind: "core", username: "" }, undefined],
    [{ kind: "core", username: "a".repeat(255) }, undefined],
  ] as [AccountRef, string | undefined][])("%j -> %j", (ref, key) => {
    expect(accountKeyOf(ref)).toBe(key);
  });
});
