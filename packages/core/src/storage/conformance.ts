/**
 * @module storage/conformance
 * The Storage conformance suite: every adapter runs it, so they all behave like the
 * in-memory reference. It declares vitest tests; call it at the top level of a test file.
 *
 * @example
 * // packages/sqlite/src/driver.test.ts
 * runStorageTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeChanges, describeSharedChanges } from "./conformance-changes.js";
import { describeChangeHistory } from "./conformance-history.js";
import { describeAccountProtection, describeSharedDatabase, type OpenShared } from "./conformance-limits.js";
import { describeSharedClaims, describeSharedWork } from "./conformance-claims.js";
import { describeListing } from "./conformance-list.js";
import { describeOutbox } from "./conformance-outbox.js";
import { describePurge } from "./conformance-purge.js";
import { describeRecords } from "./conformance-records.js";
import { describeScan } from "./conformance-scan.js";
import { describeFieldValues } from "./conformance-field-values.js";
import { describeSearch } from "./conformance-search.js";
import { F1, F2, rec, seedFlocks, stamp, testId, type Harness } from "./conformance-fixtures.js";
import type { Storage, StoredFile } from "./types.js";

/** Options of `runStorageTests`. */
export interface StorageTestOptions {
  /** Shown in the test names. */
  name: string;
  /** A fresh, empty Storage; called before every test and closed after it. */
  create: () => Promise<Storage> | Storage;
  /** Names of tests or groups to skip (a test's name, its group's name, or `group > test`). */
  skip?: string[];
  /**
   * Two Storages over one fresh, empty database, as two processes would open it (closed
   * after each test). The tests of state shared between processes run only when given.
   */
  openShared?: OpenShared;
}

/**
 * Declares the conformance tests for one adapter.
 *
 * @example
 * runStorageTests({ name: "memory", create: createMemoryStorage });
 */
export function runStorageTests(opts: StorageTestOptions): void {
  describe(`Storage conformance: ${opts.name}`, () => {
    const h = _harness(opts);
    _describeFlocks(h);
    _describeAccounts(h);
    describeAccountProtection(h);
    _describeSettings(h);
    describeRecords(h);
    describeListing(h);
    _describeFiles(h);
    describeOutbox(h);
    describeSharedWork(h);
    describePurge(h);
    describeScan(h);
    describeFieldValues(h);
    describeChanges(h);
    describeChangeHistory(h);
    describeSearch(h);
  });
  if (opts.openShared) {
    describeSharedDatabase(opts.name, opts.openShared);
    describeSharedClaims(opts.name, opts.openShared);
    describeSharedChanges(opts.name, opts.openShared);
  }
}

// --- internal ---

function _harness(opts: StorageTestOptions): Harness {
  const skip = new Set(opts.skip ?? []);
  let current: Storage | undefined;
  let group = "";
  beforeEach(async () => {
    current = await opts.create();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    storage() {
      if (!current) throw new Error("no storage: call h.storage() inside a test");
      return current;
    },
    group(name, body) {
      describe(name, () => {
        const outer = group;
        group = name;
        body();
        group = outer;
      });
    },
    it(name, fn) {
      const skipped = skip.has(name) || skip.has(group) || skip.has(`${group} > ${name}`);
      it.skipIf(skipped)(name, fn);
    },
  };
}

function _describeFlocks(h: Harness): void {
  h.group("flocks", () => {
    h.it("createFlock creates once; the second call returns false and changes nothing", async () => {
      const s = h.storage();
      const row = { identifier: "demo", name: "Demo", created: stamp(1) };
      expect(await s.createFlock(row)).toBe(true);
      expect(await s.createFlock({ ...row, name: "Other", created: stamp(2) })).toBe(false);
      expect(await s.getFlock("demo")).toEqual(row);
    });

    h.it("getFlock of an unknown identifier is undefined", async () => {
      expect(await h.storage().getFlock("nope")).toBeUndefined();
    });

    h.it("listFlocks is ordered by identifier", async () => {
      const s = h.storage();
      expect(await s.listFlocks()).toEqual([]);
      for (const id of ["b", "c", "a"]) await s.createFlock({ identifier: id, name: id.toUpperCase(), created: stamp(1) });
      expect((await s.listFlocks()).map((f) => f.identifier)).toEqual(["a", "b", "c"]);
      expect((await s.listFlocks())[0]).toEqual({ identifier: "a", name: "A", created: stamp(1) });
    });

    h.it("renameFlock changes the name only", async () => {
      const s = h.storage();
      await s.createFlock({ identifier: "demo", name: "Demo", created: stamp(1) });
      expect(await s.renameFlock("demo", "Demo Society")).toBe(true);
      expect(await s.getFlock("demo")).toEqual({ identifier: "demo", name: "Demo Society", created: stamp(1) });
      expect(await s.renameFlock("nope", "x")).toBe(false);
      expect(await s.getFlock("nope")).toBeUndefined();
    });
  });
}

function _describeAccounts(h: Harness): void {
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
}

function _describeSettings(h: Harness): void {
  h.group("settings", () => {
    h.it("initSetting: the first writer wins", async () => {
      const s = h.storage();
      expect(await s.getSetting("secret")).toBeUndefined();
      expect(await s.initSetting("secret", "one")).toBe("one");
      expect(await s.initSetting("secret", "two")).toBe("one");
      expect(await s.getSetting("secret")).toBe("one");
      expect(await s.initSetting("other", "")).toBe("");
      expect(await s.getSetting("other")).toBe("");
    });
  });
}

function _describeFiles(h: Harness): void {
  h.group("files", () => {
    const bytes = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
    const file = (id: string, over: Partial<StoredFile> = {}): StoredFile => ({
      id,
      flock: F1,
      recordType: "journal",
      recordId: testId(1),
      field: "files",
      filename: "report 2026 ☃.pdf",
      contentType: "application/pdf",
      bytes,
      created: stamp(3),
      ...over,
    });

    h.it("a stored file reads back with equal bytes", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: rec(1, {}, { type: "journal" }) }], files: [file("f0000000000000000000000a")] });
      const got = await s.getFile(F1, "f0000000000000000000000a");
      expect(got).toBeDefined();
      expect(got!.bytes).toBeInstanceOf(Uint8Array);
      expect(Array.from(got!.bytes)).toEqual(Array.from(bytes));
      expect({ ...got!, bytes: undefined }).toEqual({ ...file("f0000000000000000000000a"), bytes: undefined });
    });

    h.it("an empty file round-trips", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000b", { bytes: new Uint8Array(0) })] });
      expect(Array.from((await s.getFile(F1, "f0000000000000000000000b"))!.bytes)).toEqual([]);
    });

    h.it("getFile needs the right flock", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000c")] });
      expect(await s.getFile(F2, "f0000000000000000000000c")).toBeUndefined();
      expect(await s.getFile(F1, "f0000000000000000000000d")).toBeUndefined();
    });

    h.it("a duplicate file id is a conflict", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000e")] });
      await expect(s.apply({ files: [file("f0000000000000000000000e", { filename: "other" })] })).rejects.toMatchObject({
        code: "conflict",
      });
      expect((await s.getFile(F1, "f0000000000000000000000e"))?.filename).toBe("report 2026 ☃.pdf");
    });

    h.it("removeFilesOf deletes the files of that record only, with the record write", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { files: ["x"] }, { type: "journal" });
      await s.apply({
        records: [{ kind: "insert", record: r }],
        files: [
          file("f00000000000000000000001"),
          file("f00000000000000000000002", { field: "other" }),
          file("f00000000000000000000003", { recordId: testId(2) }),
          file("f00000000000000000000004", { recordType: "person" }),
          file("f00000000000000000000005", { flock: F2 }),
        ],
      });
      await s.apply({
        records: [{ kind: "update", record: { ...r, data: { files: null }, version: 2 }, expectedVersion: 1 }],
        removeFilesOf: [{ flock: F1, type: "journal", id: testId(1) }],
      });
      expect(await s.getFile(F1, "f00000000000000000000001")).toBeUndefined();
      expect(await s.getFile(F1, "f00000000000000000000002")).toBeUndefined();
      expect(await s.getFile(F1, "f00000000000000000000003")).toBeDefined();
      expect(await s.getFile(F1, "f00000000000000000000004")).toBeDefined();
      expect(await s.getFile(F2, "f00000000000000000000005")).toBeDefined();
      expect((await s.getRecord(F1, "journal", testId(1)))?.data).toEqual({ files: null });
    });

    h.it("removeFilesOf is rolled back with a failing change set", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, {}, { type: "journal" });
      await s.apply({ records: [{ kind: "insert", record: r }], files: [file("f00000000000000000000009")] });
      await expect(
        s.apply({
          records: [{ kind: "update", record: { ...r, version: 9 }, expectedVersion: 8 }],
          removeFilesOf: [{ flock: F1, type: "journal", id: testId(1) }],
        }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getFile(F1, "f00000000000000000000009")).toBeDefined();
    });
  });
}
