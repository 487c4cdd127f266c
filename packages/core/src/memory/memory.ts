/**
 * @module memory/memory
 * The reference Storage adapter: plain maps in memory, lists through the reference query
 * evaluator. Other adapters must behave exactly like it (`runStorageTests`). Values are
 * copied in and out, so callers can never change stored state by mutating a result.
 */
import { badRequest, conflict, notFound } from "../errors.js";
import { dedupeKeyText } from "../events/data-event.js";
import { evaluateList, matchesQuery } from "../query/evaluate.js";
import type { ListPage, ListQuery } from "../model/query.js";
import { dataBudget, LIST_ELEMENT_MIN_OVERHEAD } from "../schema/list-answer.js";
import { holdsReference, keepsReferences } from "../schema/references.js";
import { createMemoryChangeLog } from "./memory-changes.js";
import { cutDates, fieldValuesKey, requireDateCuts, requireFieldNames } from "../schema/field-values.js";
import { documentMatches, searchDocument } from "../search/search-text.js";
import { createMemoryIndexRegistry } from "./memory-indexes.js";
import { createMemoryLimits } from "./memory-limits.js";
import { DEFAULT_LIMIT_LIST } from "../storage/lease.js";
import type { ApiKeyRow, FlockRow, UserRow } from "../model/account.js";
import type { ChangeSet } from "../model/change-set.js";
import type { StoredFile } from "../model/file.js";
import type { OutboxJob } from "../model/outbox.js";
import type { RecordKey, StoredRecord } from "../model/record.js";
import { TicketStockDeltas, ticketStockOf } from "../model/ticket-stock.js";
import type { OutboxStats } from "../storage/job-queue.js";
import type { TypeSummary } from "../storage/record-store.js";
import type { Storage } from "../storage/storage.js";

/**
 * A fresh, empty in-memory Storage. Records keep insertion order; ids are unique across
 * the whole store.
 *
 * @example
 * const storage = createMemoryStorage();
 * await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
 */
export function createMemoryStorage(): Storage {
  const flocks = new Map<string, FlockRow>();
  const users = new Map<string, UserRow>();
  const keys = new Map<string, ApiKeyRow>();
  const limits = createMemoryLimits();
  const settings = new Map<string, string>();
  /** By id, in insertion order (an update keeps the record's place). */
  const records = new Map<string, StoredRecord>();
  const files = new Map<string, StoredFile>();
  /** By id, in insertion order. */
  const jobs = new Map<string, OutboxJob>();
  /** The claim token each claimed job is held under (job id → token). */
  const claims = new Map<string, string>();
  const changeLog = createMemoryChangeLog();
  const registry = createMemoryIndexRegistry();

  /**
   * Scan cursors: a number per record, increasing in insertion (map) order. Given lazily,
   * on each scan: a new record is at the end of the map, so it gets the next number; an
   * update keeps its place and number; a deleted and re-inserted id moves to the end and is
   * numbered again.
   */
  const seqs = new Map<string, number>();
  let lastSeq = 0;
  function* _inOrder(): Generator<[StoredRecord, number]> {
    let previous = 0;
    for (const [id, r] of records) {
      let seq = seqs.get(id);
      if (seq === undefined || seq <= previous) seqs.set(id, (seq = ++lastSeq));
      previous = seq;
      yield [r, seq];
    }
    if (seqs.size > records.size + 1000) for (const id of seqs.keys()) if (!records.has(id)) seqs.delete(id);
  }

  const recordOf = (flock: string, type: string, id: string) => {
    const r = records.get(id);
    return r && r.flock === flock && r.type === type ? r : undefined;
  };

  // Moved by every write (also one that then fails: a spare invalidation is harmless).
  let generation = 0;

  return {
    ...registry,
    changeGeneration: () => generation,
    async createFlock(flock) {
      generation += 1;
      if (flocks.has(flock.identifier)) return false;
      flocks.set(flock.identifier, _copy(flock));
      return true;
    },
    async getFlock(identifier) {
      return _copyOpt(flocks.get(identifier));
    },
    async renameFlock(identifier, name) {
      generation += 1;
      const row = flocks.get(identifier);
      if (!row) return false;
      flocks.set(identifier, { ...row, name });
      return true;
    },
    async listFlocks() {
      return [...flocks.values()].sort((a, b) => _cmp(a.identifier, b.identifier)).map(_copy);
    },

    async putUser(user) {
      generation += 1;
      users.set(user.username, _copy(user));
    },
    async getUser(username) {
      return _copyOpt(users.get(username));
    },
    async putApiKey(key) {
      generation += 1;
      keys.set(key.tokenHash, _copy(key));
    },
    async getApiKey(tokenHash) {
      return _copyOpt(keys.get(tokenHash));
    },
    async deleteApiKey(tokenHash) {
      generation += 1;
      return keys.delete(tokenHash);
    },
    async deleteApiKeysOf(username) {
      generation += 1;
      let n = 0;
      for (const [hash, k] of keys) if (k.username === username && keys.delete(hash)) n += 1;
      return n;
    },
    async apiKeysOf(username) {
      return [...keys.values()]
        .filter((k) => k.username === username)
        .sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.tokenHash < b.tokenHash ? -1 : 1))
        .map(_copy);
    },
    async replacePasswordHash(username, from, to) {
      const user = users.get(username);
      if (!user || user.passwordHash !== from) return false;
      generation += 1;
      users.set(username, { ...user, passwordHash: to });
      return true;
    },

    async updateLimit(key, now, fn) {
      return limits.update(key, now, fn);
    },
    async listLimits(prefix, now, limit = DEFAULT_LIMIT_LIST) {
      return limits.list(prefix, now, limit);
    },

    async getSetting(name) {
      return settings.get(name);
    },
    async initSetting(name, value) {
      generation += 1;
      if (!settings.has(name)) settings.set(name, value);
      return settings.get(name)!;
    },
    async putSetting(name, value) {
      generation += 1;
      settings.set(name, value);
    },

    async getRecord(flock, type, id) {
      return _copyOpt(recordOf(flock, type, id));
    },
    async getRecords(flock, wanted: RecordKey[]) {
      const found = new Map<string, StoredRecord>();
      for (const k of wanted) {
        const r = recordOf(flock, k.type, k.id);
        if (r) found.set(r.id, r);
      }
      return [...found.values()].map(_copy);
    },
    async getDisplayValues(flock, wanted: RecordKey[]) {
      const found = new Map<string, StoredRecord>();
      for (const k of wanted) {
        const r = recordOf(flock, k.type, k.id);
        if (r) found.set(r.id, r);
      }
      return [...found.values()].map((r) => ({ type: r.type, id: r.id, displayValue: r.displayValue }));
    },
    async listRecords(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>> {
      const page = evaluateList(_ofType(records.values(), flock, type), query);
      const take = dataBudget(query.maxDataLength);
      if (query.maxDataLength !== undefined) for (const r of page.records) take(JSON.stringify(r.data).length);
      return { total: page.total, records: page.records.map(_copy) };
    },
    async scanRecords(flock, type, query, after, limit, maxDataLength) {
      const from = after === null ? 0 : Number(after);
      if (!Number.isInteger(from)) throw badRequest("invalid cursor", `'${after}' is not a scan cursor`);
      const full = { ...query, page: 1, pageSize: 0 };
      const out: StoredRecord[] = [];
      let lastTaken = from;
      let length = 0;
      for (const [r, seq] of _inOrder()) {
        if (seq <= from || r.flock !== flock || r.type !== type || !matchesQuery(r, full)) continue;
        // A further match exists: the walk goes on after the last record taken.
        if (out.length >= Math.max(1, limit)) return { records: out.map(_copy), cursor: String(lastTaken) };
        if (maxDataLength !== undefined) {
          length += JSON.stringify(r.data).length + LIST_ELEMENT_MIN_OVERHEAD;
          if (out.length > 0 && length > maxDataLength) return { records: out.map(_copy), cursor: String(lastTaken) };
        }
        out.push(r);
        lastTaken = seq;
      }
      return { records: out.map(_copy), cursor: null };
    },
    async listFieldValues(flock, type, query, fields, limit) {
      requireFieldNames(fields);
      const full = { ...query, page: 1, pageSize: 0 };
      const out: { id: string; values: unknown[] }[] = [];
      for (const [r] of _inOrder()) {
        if (out.length >= limit) break;
        if (r.flock !== flock || r.type !== type || !matchesQuery(r, full)) continue;
        out.push({ id: r.id, values: fields.map((f) => structuredClone(_fieldValue(r, f))) });
      }
      return out;
    },
    async countFieldValues(flock, type, query, fields, cuts) {
      requireFieldNames(fields);
      requireDateCuts(cuts, fields.length);
      const full = { ...query, page: 1, pageSize: 0 };
      const groups = new Map<string, { values: unknown[]; count: number }>();
      for (const [r] of _inOrder()) {
        if (r.flock !== flock || r.type !== type || !matchesQuery(r, full)) continue;
        const values = fields.map((f, i) => {
          const cut = cuts?.[i];
          return cut === undefined ? _fieldValue(r, f) : cutDates(_fieldValue(r, f), cut);
        });
        const key = fieldValuesKey(values);
        const seen = groups.get(key);
        if (seen) seen.count++;
        else groups.set(key, { values: structuredClone(values), count: 1 });
      }
      return [...groups.values()];
    },
    // The reference recounts the stored tickets: what every adapter's kept count must equal.
    async listTicketStock(flock, bookings) {
      const wanted = new Set(bookings);
      const sums = new TicketStockDeltas();
      for (const r of records.values()) {
        const part = r.flock === flock ? ticketStockOf(r) : undefined;
        if (part && wanted.has(part.booking)) sums.add(part);
      }
      return sums.rows();
    },
    async listReferencing(flock, uri, limit, maxDataLength) {
      const out: StoredRecord[] = [];
      const take = dataBudget(maxDataLength);
      for (const r of records.values()) {
        if (out.length >= limit) break;
        if (r.flock !== flock || !keepsReferences(r.type) || !holdsReference(r.data, uri)) continue;
        if (maxDataLength !== undefined) take(JSON.stringify(r.data).length);
        out.push(_copy(r));
      }
      return out;
    },
    async searchRecords(flock, types, terms, limit, prefix) {
      // The reference: every record's document, built and tested as the indexes would.
      const out: StoredRecord[] = [];
      if (terms.length === 0) return out;
      for (const [r] of _inOrder()) {
        if (out.length >= limit) break;
        if (r.flock !== flock || !types.includes(r.type)) continue;
        const doc = searchDocument(r);
        if (doc !== undefined && documentMatches(doc, terms, prefix)) out.push(_copy(r));
      }
      return out;
    },
    // The reference searches the records themselves: nothing is ever queued.
    mergeSearchIndex: async () => 0,
    async summarizeTypes(flock): Promise<TypeSummary[]> {
      const byType = new Map<string, TypeSummary>();
      for (const r of records.values()) {
        if (r.flock !== flock) continue;
        const row = byType.get(r.type) ?? { name: r.type, count: 0, lastModified: r.lastUpdated };
        if (r.state !== "deleted") row.count += 1;
        if (r.lastUpdated > row.lastModified) row.lastModified = r.lastUpdated;
        byType.set(r.type, row);
      }
      return [...byType.values()].sort((a, b) => _cmp(a.name, b.name));
    },
    async apply(changes: ChangeSet) {
      generation += 1;
      _check(changes, records, files, jobs);
      const pending = changeLog.pending(changes);
      _write(changes, records, files, jobs);
      changeLog.append(pending, changes.attribution);
    },
    async deleteRecords(flock, type, ids) {
      generation += 1;
      let removed = 0;
      for (const id of new Set(ids)) {
        if (!recordOf(flock, type, id)) continue;
        records.delete(id);
        removed += 1;
        for (const [fileId, f] of files) {
          if (f.flock === flock && f.recordType === type && f.recordId === id) files.delete(fileId);
        }
        for (const [jobId, j] of jobs) {
          if (j.flock !== flock || j.dataEventId !== id) continue;
          jobs.delete(jobId);
          claims.delete(jobId);
        }
      }
      return removed;
    },

    async claimDueJobs(now, limit, claim) {
      const due = [...jobs.values()].filter(
        (j) => j.status === "pending" && j.nextAttemptAt <= now && (j.claimedUntil == null || j.claimedUntil <= now),
      );
      due.sort((a, b) => _cmp(a.nextAttemptAt, b.nextAttemptAt) || _cmp(a.id, b.id));
      const taken = due.slice(0, Math.max(0, Math.floor(limit)));
      if (taken.length > 0) generation += 1;
      for (const j of taken) {
        j.claimedUntil = claim.until;
        claims.set(j.id, claim.token);
      }
      return taken.map(_copy);
    },
    async renewJobClaims(tokens, until) {
      const held = new Set(tokens);
      let n = 0;
      for (const [id, token] of claims) {
        const j = jobs.get(id);
        if (j && held.has(token)) {
          j.claimedUntil = until;
          n += 1;
        }
      }
      return n;
    },
    async finishJob(id, token, update, changes = {}) {
      const job = jobs.get(id);
      if (!job) throw notFound("job not found", `no outbox job with id '${id}'`);
      if (claims.get(id) !== token) return false;
      generation += 1;
      _check(changes, records, files, jobs);
      const pending = changeLog.pending(changes);
      _write(changes, records, files, jobs);
      changeLog.append(pending, changes.attribution);
      const { keepClaim, ...fields } = update;
      if (!keepClaim) claims.delete(id);
      jobs.set(id, {
        ...job,
        ...fields,
        lastStatus: fields.lastStatus ?? null,
        body: fields.body === undefined ? job.body : fields.body,
        claimedUntil: keepClaim ? job.claimedUntil : null,
      });
      return true;
    },
    async resumeHeldJobs(flock, trigger, action, now) {
      let n = 0;
      for (const [id, j] of jobs) {
        if (j.status !== "held" || j.flock !== flock || j.trigger !== trigger || j.action !== action) continue;
        claims.delete(id);
        jobs.set(id, { ...j, status: "pending", nextAttemptAt: now, firstAttemptAt: null, claimedUntil: null });
        n += 1;
      }
      if (n > 0) generation += 1;
      return n;
    },
    async retryJob(flock, id, now) {
      const job = jobs.get(id);
      if (!job || job.flock !== flock || job.status === "done") return undefined;
      if (claims.has(id) && job.claimedUntil && job.claimedUntil > now) return "claimed";
      claims.delete(id);
      generation += 1;
      const retried: OutboxJob = { ...job, status: "pending", nextAttemptAt: now, claimedUntil: null };
      jobs.set(id, retried);
      return { ...retried };
    },
    async listJobs(filter) {
      const out: OutboxJob[] = [];
      const limit = filter.limit ?? 100;
      for (const j of [...jobs.values()].reverse()) {
        if (out.length >= limit) break;
        if (filter.flock !== undefined && j.flock !== filter.flock) continue;
        if (filter.status !== undefined && j.status !== filter.status) continue;
        out.push(_copy(j));
      }
      return out;
    },

    async outboxStats(now) {
      const byStatus: OutboxStats["byStatus"] = {};
      let oldestDueAt: string | null = null;
      for (const j of jobs.values()) {
        if (j.status === "done") continue;
        byStatus[j.status] = (byStatus[j.status] ?? 0) + 1;
        if (j.status === "pending" && j.nextAttemptAt <= now && (oldestDueAt === null || j.nextAttemptAt < oldestDueAt)) oldestDueAt = j.nextAttemptAt;
      }
      return { byStatus, oldestDueAt };
    },

    async readChanges(flock, after, limit, types) {
      return changeLog.read(flock, after, limit, types);
    },
    async readChangeHeads(flocks) {
      return changeLog.heads(flocks);
    },
    async purgeChanges(before, limit) {
      generation += 1;
      return changeLog.purge(before, limit);
    },
    async readChangeHistory(flock, query) {
      return changeLog.history(flock, query);
    },

    async getFile(flock, id) {
      const f = files.get(id);
      return f && f.flock === flock ? _copy(f) : undefined;
    },

    // One process owns the maps, so the generation is exact already; no pool to report.
    async syncChanges() {},
    poolStats: () => undefined,
    async close() {},
  };
}

// --- internal ---

/** Writes a checked change set. */
function _write(
  changes: ChangeSet,
  records: Map<string, StoredRecord>,
  files: Map<string, StoredFile>,
  jobs: Map<string, OutboxJob>,
): void {
  for (const w of changes.records ?? []) records.set(w.record.id, _copy(w.record));
  for (const f of changes.files ?? []) files.set(f.id, _copy(f));
  for (const owner of changes.removeFilesOf ?? []) {
    for (const [id, f] of files) {
      if (f.flock === owner.flock && f.recordType === owner.type && f.recordId === owner.id) files.delete(id);
    }
  }
  for (const j of changes.outbox ?? []) jobs.set(j.id, _copy({ ...j, body: j.body ?? null, claimedUntil: null }));
}

/** Throws `conflict` (before anything is applied) if any write of the change set cannot apply. */
function _check(
  changes: ChangeSet,
  records: Map<string, StoredRecord>,
  files: Map<string, StoredFile>,
  jobs: Map<string, OutboxJob>,
): void {
  const inserted = new Set<string>();
  const updated = new Map<string, number>();
  for (const w of changes.records ?? []) {
    const id = w.record.id;
    if (w.kind === "insert") {
      if (records.has(id) || inserted.has(id)) throw conflict("record exists", `a record with id '${id}' exists`);
      inserted.add(id);
      continue;
    }
    // Two updates of one record in one change set chain: the second expects the first's version.
    const current = updated.get(id) ?? _storedVersion(records, w.record);
    if (current !== w.expectedVersion) {
      throw conflict(
        "record changed",
        `record '${id}' is at version ${current ?? "none"}, not ${w.expectedVersion}; read it again and retry`,
      );
    }
    updated.set(id, w.record.version);
  }
  _checkDedupeKeys(changes, records);
  const newFiles = new Set<string>();
  for (const f of changes.files ?? []) {
    if (files.has(f.id) || newFiles.has(f.id)) throw conflict("file exists", `a file with id '${f.id}' exists`);
    newFiles.add(f.id);
  }
  const newJobs = new Set<string>();
  for (const j of changes.outbox ?? []) {
    if (jobs.has(j.id) || newJobs.has(j.id)) throw conflict("job exists", `an outbox job with id '${j.id}' exists`);
    newJobs.add(j.id);
  }
}

/**
 * One data event per dedupe key and flock, as the SQL adapters' unique index keeps it: two
 * processes emitting the same scheduled event at once store it once.
 */
function _checkDedupeKeys(changes: ChangeSet, records: Map<string, StoredRecord>): void {
  const keyOf = (r: StoredRecord) => {
    const key = dedupeKeyText(r);
    return key === null ? undefined : `${r.flock}\n${key}`;
  };
  const writes = new Map<string, string>();
  for (const w of changes.records ?? []) {
    const key = keyOf(w.record);
    if (key === undefined) continue;
    if (writes.has(key) && writes.get(key) !== w.record.id) throw _dedupeConflict(w.record);
    writes.set(key, w.record.id);
  }
  if (writes.size === 0) return;
  for (const r of records.values()) {
    const key = keyOf(r);
    if (key !== undefined && writes.has(key) && writes.get(key) !== r.id) {
      throw _dedupeConflict(r);
    }
  }
}

function _dedupeConflict(r: StoredRecord) {
  return conflict("event exists", `a data event with dedupe_key ${JSON.stringify(r.data.dedupe_key)} exists in flock '${r.flock}'`);
}

function _storedVersion(records: Map<string, StoredRecord>, r: StoredRecord): number | undefined {
  const stored = records.get(r.id);
  return stored && stored.flock === r.flock && stored.type === r.type ? stored.version : undefined;
}

function* _ofType(records: Iterable<StoredRecord>, flock: string, type: string): Iterable<StoredRecord> {
  for (const r of records) if (r.flock === flock && r.type === type) yield r;
}


/** A field's value for the field-value reads: the meta names are the record's columns, as in filters. */
function _fieldValue(r: StoredRecord, field: string): unknown {
  if (field === "id") return r.id;
  if (field === "created") return r.created;
  if (field === "last_updated") return r.lastUpdated;
  return Object.hasOwn(r.data, field) ? r.data[field] : undefined;
}

function _copy<T>(v: T): T {
  return structuredClone(v);
}

function _copyOpt<T>(v: T | undefined): T | undefined {
  return v === undefined ? undefined : structuredClone(v);
}

/** Code-unit order, like the SQLite adapter's BINARY collation for ASCII identifiers. */
function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
