/**
 * @module testing/harness
 * What every role's conformance suite runs on: a fresh Storage per test, groups and tests
 * that an adapter may skip (each skip with its reason, written in the adapter's test
 * file), and the pair of Storages over one database for the tests of state shared
 * between processes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Storage } from "../storage/storage.js";

/** Opens two Storages over one fresh database, as two processes would. */
export type OpenShared = () => Promise<[Storage, Storage]> | [Storage, Storage];

/**
 * Cases an adapter cannot support, and why. A name is a test's name, its group's name, or
 * `group > test`; a name that matches nothing fails the run (a renamed test must not
 * quietly stop being skipped, nor a typo quietly skip nothing).
 */
export interface SkipEntry {
  /** Why the adapter cannot support these cases (shown in the test file, required). */
  reason: string;
  tests: string[];
}

/** Options of `runStorageTests` and of each role's suite. */
export interface StorageTestOptions {
  /** Shown in the test names. */
  name: string;
  /** A fresh, empty Storage; called before every test and closed after it. */
  create: () => Promise<Storage> | Storage;
  /** Cases this adapter skips, each with its reason. */
  skip?: SkipEntry[];
  /**
   * Two Storages over one fresh, empty database, as two processes would open it (closed
   * after each test). The tests of state shared between processes run only when given.
   */
  openShared?: OpenShared;
}

/** What each conformance group gets: the current test's Storage and a skippable `it`. */
export interface Harness {
  /** The Storage created for the running test. */
  storage(): Storage;
  /** Declares a group of tests (skippable by its name). */
  group(name: string, body: () => void): void;
  /** Declares a test (skippable by its name, its group's name, or `group > name`). */
  it(name: string, fn: () => Promise<void>): void;
  /**
   * Declares a group of tests on two Storages over one database (`open` gives a fresh pair,
   * closed after the test); declared only when the adapter gives `openShared`.
   */
  shared(name: string, body: (open: () => Promise<[Storage, Storage]>) => void): void;
}

/**
 * Declares `title` with a harness over `opts`, and `body`'s groups in it.
 *
 * @example
 * declareSuite(`FlockStore conformance: ${opts.name}`, opts, describeFlockStore);
 */
export function declareSuite(title: string, opts: StorageTestOptions, body: (h: Harness) => void): void {
  const skips = opts.skip ?? [];
  for (const s of skips) {
    if (!s.reason.trim()) throw new Error(`${opts.name}: a skip of ${JSON.stringify(s.tests)} gives no reason`);
  }
  const skipped = new Set(skips.flatMap((s) => s.tests));
  const declared = new Set<string>();
  describe(title, () => {
    body(_harness(opts, skipped, declared));
    if (skipped.size > 0) {
      it("every skipped name is a test or group of this suite", () => {
        expect(unmatchedSkips(skipped, declared)).toEqual([]);
      });
    }
  });
}

/**
 * The skipped names that name no declared test or group (`declared` holds each group's
 * name, each test's name and each `group > test`).
 *
 * @example
 * unmatchedSkips(new Set(["flocks", "nope"]), new Set(["flocks", "listFlocks", "flocks > listFlocks"])) // ["nope"]
 */
export function unmatchedSkips(skipped: ReadonlySet<string>, declared: ReadonlySet<string>): string[] {
  return [...skipped].filter((name) => !declared.has(name));
}

// --- internal ---

function _harness(opts: StorageTestOptions, skipped: ReadonlySet<string>, declared: Set<string>): Harness {
  let current: Storage | undefined;
  let group = "";
  /** Groups whose tests open their own pair: no Storage of `create` beside it. */
  const sharedGroups = new Set<string>();
  beforeEach(async (ctx) => {
    if (ctx.task.suite && sharedGroups.has(ctx.task.suite.name)) return;
    current = await opts.create();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const inGroup = (name: string, body: () => void) => {
    declared.add(name);
    describe(name, () => {
      const outer = group;
      group = name;
      body();
      group = outer;
    });
  };
  return {
    storage() {
      if (!current) throw new Error("no storage: call h.storage() inside a test");
      return current;
    },
    group: inGroup,
    it(name, fn) {
      declared.add(name).add(`${group} > ${name}`);
      it.skipIf(skipped.has(name) || skipped.has(group) || skipped.has(`${group} > ${name}`))(name, fn);
    },
    shared(name, body) {
      const openShared = opts.openShared;
      if (!openShared) return;
      sharedGroups.add(name);
      inGroup(name, () => {
        const opened: Storage[] = [];
        afterEach(async () => {
          for (const s of opened.splice(0)) await s.close();
        });
        body(async () => {
          const pair = await openShared();
          opened.push(...pair);
          return pair;
        });
      });
    },
  };
}
