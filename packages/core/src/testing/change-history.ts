/**
 * @module testing/change-history
 * Conformance of what audit reads from the change log: every change row keeps the
 * attribution of its change set (who, which application), and `readChangeHistory` answers
 * a record's or a flock's kept changes newest first, with the previous kept state of each
 * record, the total, the record's oldest kept change, and the type, time and page limits.
 */
import { expect } from "vitest";
import { F1, F2, insertAll, pendingJob, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { HistoryChange } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";
import type { ChangeHistoryQuery } from "../storage/change-log.js";
import type { Storage } from "../storage/storage.js";

/** Declares the change history tests (the group "change history" needs `readChangeHistory`). */
export function describeChangeHistory(h: Harness): void {
  h.group("change attribution", () => {
    h.it("each change row keeps its change set's attribution; a set without one logs nulls", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const a = rec(1, { n: 1 });
      await s.apply({ records: [{ kind: "insert", record: a }, { kind: "insert", record: rec(2, { n: 1 }, { flock: F2 }) }], attribution: { actor: "ada", application: "Acme/Sync/2" } });
      await s.apply({ records: [{ kind: "update", record: _next(a, { n: 2 }, 5), expectedVersion: 1, changed: ["n"] }], attribution: { actor: null, application: "system:tasks" } });
      await insertAll(s, [rec(3, { n: 1 })]);
      const who = (rows: { actor: string | null; application: string | null }[]) => rows.map((c) => [c.actor, c.application]);
      expect(who((await s.readChanges(F1, 0, 10)).changes)).toEqual([
        ["ada", "Acme/Sync/2"],
        [null, "system:tasks"],
        [null, null],
      ]);
      expect(who((await s.readChanges(F2, 0, 10)).changes)).toEqual([["ada", "Acme/Sync/2"]]);
    });

    h.it("finishJob's changes keep their attribution", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const event = rec(1, { name: "x", tags: [] }, { type: "data_event" });
      const job = pendingJob(event);
      await s.apply({ records: [{ kind: "insert", record: event }], outbox: [job] });
      const claim = { token: "conformance-claim-token-2", until: stamp(10) };
      expect(await s.claimDueJobs(stamp(5), 10, claim)).toHaveLength(1);
      await s.finishJob(job.id, claim.token, { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null }, {
        records: [{ kind: "update", record: _next(event, { name: "x", tags: ["t"] }, 5), expectedVersion: 1, changed: ["tags"] }],
        attribution: { actor: null, application: "system:outbox" },
      });
      expect((await s.readChanges(F1, 1, 10)).changes.map((c) => [c.actor, c.application])).toEqual([[null, "system:outbox"]]);
    });
  });

  h.group("change history", () => {
    h.it("a record's kept changes, newest first, with each previous state, the total and the oldest", async () => {
      const s = h.storage();
      const { a } = await _story(s);
      const page = await _read(s, F1, { type: "thing", recordId: a.id, skip: 0, limit: 10 });
      expect(page.total).toBe(4);
      expect(page.changes.map((c) => [c.id, c.version, c.state, c.previousState, c.fields, c.actor])).toEqual([
        [6, 4, "updated", "deleted", [], "bob"],
        [5, 3, "deleted", "updated", [], "bob"],
        [3, 2, "updated", "updated", ["n"], "ada"],
        [1, 1, "updated", null, ["n"], "ada"],
      ]);
      expect(page.oldest).toEqual({ id: 1, flock: F1, type: "thing", recordId: a.id, state: "updated", version: 1, changedAt: stamp(1), fields: ["n"], actor: "ada", application: "Acme/Sync/2" });
      expect(page.changes[3]).toMatchObject({ ...page.oldest, previousState: null });
    });

    h.it("skip, limit and the time filters page a record's changes; the total counts what matches", async () => {
      const s = h.storage();
      const { a } = await _story(s);
      const q = { type: "thing", recordId: a.id };
      const ids = (p: { changes: HistoryChange[] }) => p.changes.map((c) => c.id);
      const two = await _read(s, F1, { ...q, skip: 1, limit: 2 });
      expect([ids(two), two.total]).toEqual([[5, 3], 4]);
      const none = await _read(s, F1, { ...q, skip: 0, limit: 0 });
      expect([ids(none), none.total, none.oldest?.id]).toEqual([[], 4, 1]);
      const late = await _read(s, F1, { ...q, from: stamp(20), skip: 0, limit: 10 });
      expect([ids(late), late.total, late.oldest?.id]).toEqual([[6, 5], 2, 1]);
      const early = await _read(s, F1, { ...q, to: stamp(20), skip: 0, limit: 10 });
      expect([ids(early), early.total]).toEqual([[3, 1], 2]);
      expect(await _read(s, F1, { type: "thing", recordId: testId(99), skip: 0, limit: 10 })).toMatchObject({ changes: [], total: 0 });
      expect((await _read(s, F1, { type: "thing", recordId: testId(99), skip: 0, limit: 10 })).oldest).toBeUndefined();
    });

    h.it("a flock's kept changes, newest first, by type and time, paged", async () => {
      const s = h.storage();
      await _story(s);
      const ids = (p: { changes: HistoryChange[] }) => p.changes.map((c) => c.id);
      const all = await _read(s, F1, { skip: 0, limit: 100 });
      expect([ids(all), all.total]).toEqual([[6, 5, 4, 3, 2, 1], 6]);
      expect(all.oldest).toBeUndefined();
      expect(all.changes.find((c) => c.id === 4)).toMatchObject({ type: "other", previousState: null });
      const others = await _read(s, F1, { type: "other", skip: 0, limit: 100 });
      expect([ids(others), others.total]).toEqual([[4, 2], 2]);
      const window = await _read(s, F1, { from: stamp(2), to: stamp(30), skip: 1, limit: 2 });
      expect([ids(window), window.total]).toEqual([[4, 3], 4]);
      expect(ids(await _read(s, F1, { skip: 6, limit: 10 }))).toEqual([]);
      expect(await _read(s, F2, { skip: 0, limit: 10 })).toMatchObject({ changes: [{ id: 1, flock: F2 }], total: 1 });
      expect(await _read(s, "nope", { skip: 0, limit: 10 })).toMatchObject({ changes: [], total: 0 });
    });

    h.it("after a purge only the kept changes count: the oldest and the previous states are the kept ones", async () => {
      const s = h.storage();
      const { a } = await _story(s);
      await s.purgeChanges(stamp(5));
      const page = await _read(s, F1, { type: "thing", recordId: a.id, skip: 0, limit: 10 });
      expect(page.changes.map((c) => [c.id, c.previousState])).toEqual([
        [6, "deleted"],
        [5, "updated"],
        [3, null],
      ]);
      expect([page.total, page.oldest?.id]).toEqual([3, 3]);
    });
  });
}

// --- internal ---

/**
 * Flock F1: record a (type thing) created and updated by ada through Acme/Sync/2, deleted
 * and restored by bob; two records of type other created by ada; one write in F2.
 * Ids in F1: 1 a created (t1), 2 b created (t2), 3 a updated (t10), 4 c created (t20),
 * 5 a deleted (t21), 6 a restored (t30).
 */
async function _story(s: Storage): Promise<{ a: StoredRecord }> {
  await seedFlocks(s);
  const ada = { actor: "ada", application: "Acme/Sync/2" };
  const bob = { actor: "bob", application: null };
  const a = rec(1, { n: 1 });
  await s.apply({ records: [{ kind: "insert", record: a }], attribution: ada });
  await s.apply({ records: [{ kind: "insert", record: rec(2, { n: 1 }, { type: "other" }) }], attribution: ada });
  const a2 = _next(a, { n: 2 }, 10);
  await s.apply({ records: [{ kind: "update", record: a2, expectedVersion: 1, changed: ["n"] }], attribution: ada });
  await s.apply({ records: [{ kind: "insert", record: rec(20, { n: 1 }, { type: "other" }) }], attribution: ada });
  const a3 = { ..._next(a2, a2.data, 21), state: "deleted" as const };
  await s.apply({ records: [{ kind: "update", record: a3, expectedVersion: 2, changed: [] }], attribution: bob });
  await s.apply({ records: [{ kind: "update", record: { ..._next(a3, a3.data, 30), state: "updated" }, expectedVersion: 3, changed: [] }], attribution: bob });
  await insertAll(s, [rec(3, { n: 1 }, { flock: F2 })]);
  return { a };
}

function _next(r: StoredRecord, data: Record<string, unknown>, at: number): StoredRecord {
  return { ...r, data, version: r.version + 1, lastUpdated: stamp(at) };
}

function _read(s: Storage, flock: string, query: ChangeHistoryQuery) {
  return s.readChangeHistory(flock, query);
}
