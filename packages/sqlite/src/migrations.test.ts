/**
 * Data migrations, run on a database made by the migrations before them: member accounts
 * move into their flock's namespace, and keys without an expiry get one; change rows
 * logged before the attribution columns read as not attributed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateList, parseListQuery, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "./driver.js";
import { registerIndexFunctions } from "./field-indexes.js";
import { MIGRATIONS_FOLDER } from "./open.js";
import { rewindMigrations } from "./testing.js";

const dir = mkdtempSync(join(tmpdir(), "records-migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database file migrated only up to (not including) the migration tagged `before`. */
function databaseBefore(before: string): string {
  const folder = join(dir, `migrations-${before}`);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === before);
  expect(at).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  const path = join(dir, `${before}.db`);
  const client = new Database(path);
  registerIndexFunctions(client); // what migration 0012 calls
  migrate(drizzle(client), { migrationsFolder: folder });
  client.close();
  return path;
}

describe("0003_member_accounts", () => {
  it("moves each member account into its flocks' namespace, ends its sessions, and dates keys without expiry", async () => {
    const path = databaseBefore("0003_member_accounts");
    const client = new Database(path);
    const user = client.prepare("INSERT INTO users (username, password_hash, flocks, role, created) VALUES (?, ?, ?, ?, ?)");
    user.run("ada@example.org", "scrypt$member", JSON.stringify(["alpha", "beta"]), "self-service", "2026-01-01T00:00:00.000000");
    user.run("admin", "scrypt$admin", JSON.stringify(["*"]), "core", "2026-01-01T00:00:00.000000");
    const key = client.prepare("INSERT INTO api_keys (token_hash, username, created, expires) VALUES (?, ?, ?, ?)");
    key.run("1".repeat(64), "ada@example.org", "2026-01-02T00:00:00.000000", "2026-01-03T00:00:00.000000");
    key.run("2".repeat(64), "admin", "2026-01-02T10:20:30.123456", null);
    key.run("3".repeat(64), "admin", "2026-01-02T10:20:30.123456", "2026-01-05T00:00:00.000000");
    client.close();

    const storage = createSqliteStorage({ path });
    expect(await storage.getUser("ada@example.org")).toBeUndefined();
    for (const flock of ["alpha", "beta"]) {
      expect(await storage.getUser(`${flock} ada@example.org`)).toEqual({
        username: `${flock} ada@example.org`,
        passwordHash: "scrypt$member",
        flocks: [flock],
        role: "self-service",
        created: "2026-01-01T00:00:00.000000",
      });
    }
    expect((await storage.getUser("admin"))?.role).toBe("core");
    expect(await storage.getApiKey("1".repeat(64))).toBeUndefined();
    expect((await storage.getApiKey("2".repeat(64)))?.expires).toBe("2026-02-01T10:20:30.123456");
    expect((await storage.getApiKey("3".repeat(64)))?.expires).toBe("2026-01-05T00:00:00.000000");
    await storage.close();
  });
});

describe("0004_claims", () => {
  it("keeps the first data event of a dedupe key doubled before the unique index, and unclaims the outbox", async () => {
    const path = databaseBefore("0004_claims");
    const client = new Database(path);
    client.prepare("INSERT INTO collections (cid, flock, type) VALUES (1, 'demo', 'data_event'), (2, 'other', 'data_event')").run();
    const ins = client.prepare(
      "INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version) VALUES (?, ?, 'updated', ?, '', '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000', 1)",
    );
    const data = (key: string) => JSON.stringify({ name: "expiring_2wk", dedupe_key: key });
    ins.run(1, "a".repeat(24), data("k1"));
    ins.run(1, "b".repeat(24), data("k1"));
    ins.run(2, "c".repeat(24), data("k1"));
    ins.run(1, "d".repeat(24), JSON.stringify({ name: "login" }));
    client.close();

    const storage = createSqliteStorage({ path });
    const got = await storage.getRecords("demo", ["a", "b", "d"].map((c) => ({ type: "data_event", id: c.repeat(24) })));
    expect(got.map((r) => [r.id[0], r.data.dedupe_key])).toEqual([
      ["a", "k1"],
      ["b", undefined],
      ["d", undefined],
    ]);
    expect((await storage.getRecord("other", "data_event", "c".repeat(24)))?.data.dedupe_key).toBe("k1");
    await expect(
      storage.apply({
        records: [{ kind: "insert", record: { ...got[0]!, id: "e".repeat(24) } }],
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    await storage.close();
  });
});

describe("0007_change_attribution", () => {
  it("keeps the changes logged before it, with no actor or application, and attributes the writes after it", async () => {
    const path = databaseBefore("0007_change_attribution");
    const client = new Database(path);
    client.prepare("INSERT INTO flocks (identifier, name, created) VALUES ('demo', 'Demo', '2026-01-01T00:00:00.000000')").run();
    client.prepare("INSERT INTO change_heads (flock, last_id) VALUES ('demo', 1)").run();
    client
      .prepare("INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields) VALUES ('demo', 1, 'thing', ?, 'updated', 1, '2026-01-01T00:00:01.000000', '[\"n\"]')")
      .run("a".repeat(24));
    client.close();

    const storage = createSqliteStorage({ path });
    const record = { id: "a".repeat(24), flock: "demo", type: "thing", state: "updated" as const, data: { n: 2 }, displayValue: "", created: "2026-01-01T00:00:01.000000", lastUpdated: "2026-01-02T00:00:00.000000", version: 2 };
    await storage.apply({ records: [{ kind: "insert", record }], attribution: { actor: "ada", application: "Acme/Sync/2" } });
    const page = await storage.readChangeHistory("demo", { type: "thing", recordId: record.id, skip: 0, limit: 10 });
    expect(page.changes.map((c) => [c.id, c.actor, c.application, c.previousState])).toEqual([
      [2, "ada", "Acme/Sync/2", "updated"],
      [1, null, null, null],
    ]);
    expect(page.oldest).toMatchObject({ id: 1, version: 1, actor: null, application: null, fields: ["n"] });
    await storage.close();
  });
});

describe("0010_folded_when_different", () => {
  it("keeps a folded form only where it differs, and the case-insensitive filters still find every value", async () => {
    const path = databaseBefore("0010_folded_when_different");
    const client = new Database(path);
    client.prepare("INSERT INTO collections (cid, flock, type) VALUES (1, 'demo', 'person')").run();
    client.prepare("INSERT INTO fields (fid, cid, name) VALUES (1, 1, 'last_name')").run();
    const names = ["Lovelace", "lovelace", "straße", "İnce", "ÄRZTE"];
    const record = client.prepare(
      "INSERT INTO records (rid, cid, id, state, data, display_value, created, last_updated, version) VALUES (?, 1, ?, 'updated', ?, '', '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000', 1)",
    );
    const value = client.prepare("INSERT INTO record_values (rid, fid, kind, text, folded, num) VALUES (?, 1, 0, ?, ?, NULL)");
    names.forEach((n, i) => {
      record.run(i + 1, String(i + 1).repeat(24), JSON.stringify({ last_name: n }));
      value.run(i + 1, n, n.toLowerCase());
    });
    client.close();

    const storage = createSqliteStorage({ path });
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT text, folded FROM record_values ORDER BY rid").all()).toEqual([
      { text: "Lovelace", folded: "lovelace" },
      { text: "lovelace", folded: null },
      { text: "straße", folded: null },
      { text: "İnce", folded: "i\u0307nce" },
      { text: "ÄRZTE", folded: "ärzte" },
    ]);
    const sql = (raw.prepare("SELECT sql FROM sqlite_schema WHERE name = 'record_values'").get() as { sql: string }).sql;
    expect(sql).toContain("WITHOUT ROWID");
    raw.close();
    const ids = async (op: "startswithi" | "near", text: string) => {
      const filters = [{ field: "last_name", meta: false, op, values: [{ text }] }];
      const page = await storage.listRecords("demo", "person", { filters, mode: "AND", states: ["updated"], page: 1, pageSize: 25 });
      return page.records.map((r) => r.data.last_name);
    };
    expect(await ids("startswithi", "LOVE")).toEqual(["Lovelace", "lovelace"]);
    expect(await ids("near", "RZT")).toEqual(["ÄRZTE"]);
    expect(await ids("near", "SSE")).toEqual([]);
    expect(await ids("near", "STRAß")).toEqual(["straße"]);
    expect(await ids("startswithi", "i\u0307n")).toEqual(["İnce"]);
    await storage.close();
  });
});

describe("0013_changes_rowid", () => {
  it("keeps every change and its order, reads the feed and a record's history after it, and keeps (flock, id) unique", async () => {
    const path = databaseBefore("0013_changes_rowid");
    const client = new Database(path);
    client.prepare("INSERT INTO flocks (identifier, name, created) VALUES ('demo', 'Demo', '2026-01-01T00:00:00.000000')").run();
    client.prepare("INSERT INTO change_heads (flock, last_id) VALUES ('demo', 3)").run();
    const fields = JSON.stringify(Array.from({ length: 80 }, (_, i) => `a_rather_long_field_name_${i}`));
    const change = client.prepare(
      "INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields, actor, application) VALUES ('demo', ?, 'thing', ?, 'updated', ?, ?, ?, ?, NULL)",
    );
    change.run(1, "a".repeat(24), 1, "2026-01-01T00:00:01.000000", fields, "ada");
    change.run(2, "b".repeat(24), 1, "2026-01-01T00:00:02.000000", '["n"]', null);
    change.run(3, "a".repeat(24), 2, "2026-01-01T00:00:03.000000", '["n"]', null);
    client.close();

    const storage = createSqliteStorage({ path });
    const raw = new Database(path, { readonly: true });
    const sql = (raw.prepare("SELECT sql FROM sqlite_schema WHERE name = 'changes'").get() as { sql: string }).sql;
    expect(sql).not.toContain("WITHOUT ROWID");
    expect(raw.prepare("SELECT id, record_id FROM changes ORDER BY rowid").all()).toEqual([
      { id: 1, record_id: "a".repeat(24) },
      { id: 2, record_id: "b".repeat(24) },
      { id: 3, record_id: "a".repeat(24) },
    ]);
    // A 1.3 KB row stays on its page: no overflow page.
    const overflow = raw.prepare("SELECT count(*) AS n FROM dbstat WHERE name = 'changes' AND pagetype = 'overflow'").get() as { n: number };
    expect(overflow.n).toBe(0);
    expect(() => new Database(path).prepare("INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields) VALUES ('demo', 2, 'thing', 'x', 'updated', 1, 't', '[]')").run()).toThrow(/UNIQUE/);
    raw.close();

    const feed = await storage.readChanges("demo", 0, 10);
    expect(feed.changes.map((c) => [c.id, c.recordId, c.fields.length])).toEqual([
      [1, "a".repeat(24), 80],
      [2, "b".repeat(24), 1],
      [3, "a".repeat(24), 1],
    ]);
    const history = await storage.readChangeHistory("demo", { type: "thing", recordId: "a".repeat(24), skip: 0, limit: 10 });
    expect(history.changes.map((c) => [c.id, c.actor, c.previousState])).toEqual([
      [3, null, "updated"],
      [1, "ada", null],
    ]);
    await storage.close();
  });
});

describe("0014_dedupe_key_column", () => {
  it("keys each data event by its text dedupe_key, and leaves another type's field and a key that is not text as data", async () => {
    const path = databaseBefore("0014_dedupe_key_column");
    const client = new Database(path);
    client.prepare("INSERT INTO flocks (identifier, name, created) VALUES ('demo', 'Demo', '2026-01-01T00:00:00.000000')").run();
    client.prepare("INSERT INTO collections (cid, flock, type) VALUES (1, 'demo', 'data_event'), (2, 'demo', 'journal')").run();
    const ins = client.prepare(
      "INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version) VALUES (?, ?, 'updated', ?, '', 't', 't', 1)",
    );
    ins.run(1, "a".repeat(24), JSON.stringify({ name: "expiring_2wk", dedupe_key: "k\u00e9 \"1\"" }));
    ins.run(1, "b".repeat(24), JSON.stringify({ name: "expiring_2wk", dedupe_key: 7 }));
    ins.run(1, "c".repeat(24), JSON.stringify({ name: "login" }));
    ins.run(2, "d".repeat(24), JSON.stringify({ dedupe_key: "k\u00e9 \"1\"" }));
    client.close();

    const storage = createSqliteStorage({ path });
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT id, dedupe_key FROM records ORDER BY rid").all()).toEqual([
      { id: "a".repeat(24), dedupe_key: JSON.stringify("k\u00e9 \"1\"") },
      { id: "b".repeat(24), dedupe_key: null },
      { id: "c".repeat(24), dedupe_key: null },
      { id: "d".repeat(24), dedupe_key: null },
    ]);
    raw.close();
    // The key still holds (a second event of it is refused); another journal with it is not.
    const event = (await storage.getRecord("demo", "data_event", "a".repeat(24)))!;
    await expect(storage.apply({ records: [{ kind: "insert", record: { ...event, id: "e".repeat(24) } }] })).rejects.toMatchObject({ code: "conflict" });
    const journal = (await storage.getRecord("demo", "journal", "d".repeat(24)))!;
    await storage.apply({ records: [{ kind: "insert", record: { ...journal, id: "f".repeat(24) } }] });
    await storage.close();
  });
});

describe("0015_account_changes", () => {
  it("moves its mark on every change to flocks, users and keys, whoever writes them, and on no record write", async () => {
    const path = databaseBefore("0015_account_changes");
    const storage = createSqliteStorage({ path });
    const raw = new Database(path);
    const mark = () => (raw.prepare("SELECT n FROM account_changes").get() as { n: number }).n;
    const seen = [mark()];
    const moved = () => {
      const now = mark();
      expect(seen).not.toContain(now); // a new mark, never one seen before
      seen.push(now);
    };
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    moved();
    await storage.putUser({ username: "ada", passwordHash: "x", flocks: ["demo"], role: "core", created: "2026-01-01T00:00:00.000000" });
    moved();
    await storage.putApiKey({ tokenHash: "h", username: "ada", created: "2026-01-01T00:00:00.000000", expires: null });
    moved();
    raw.prepare("UPDATE flocks SET name = 'Other'").run(); // another process, by hand
    moved();
    raw.prepare("DELETE FROM api_keys").run();
    moved();
    const record = { id: "a".repeat(24), flock: "demo", type: "thing", state: "updated" as const, data: {}, displayValue: "", created: "t", lastUpdated: "t", version: 1 };
    await storage.apply({ records: [{ kind: "insert", record }] });
    expect(mark()).toBe(seen.at(-1));
    raw.close();
    await storage.close();
  });
});

describe("0016_pages_per_create", () => {
  it("keeps only the deleted records in an index by state, and every list, page and count answers as before", async () => {
    const path = join(dir, "0016.db");
    const records = Array.from({ length: 60 }, (_, i): StoredRecord => ({
      id: (i + 1).toString(16).padStart(24, "0"),
      flock: "demo",
      type: "person",
      state: i % 4 === 0 ? "deleted" : "updated",
      data: { last_name: `Name${i % 5}` },
      displayValue: "",
      created: "2026-01-01T00:00:00.000000",
      lastUpdated: "2026-01-01T00:00:00.000000",
      version: 1,
    }));
    const before = createSqliteStorage({ path });
    await before.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    await before.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
    await before.close();
    const raw = new Database(path);
    rewindMigrations(raw, "0016_pages_per_create");
    const indexes = () => (raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'records' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(indexes()).toContain("records_cid_state_idx");
    expect(indexes()).not.toContain("records_cid_deleted_idx");

    const s = createSqliteStorage({ path });
    expect(indexes()).toContain("records_cid_deleted_idx");
    expect(indexes()).not.toContain("records_cid_state_idx");
    expect((raw.prepare("SELECT count(*) AS n FROM records INDEXED BY records_cid_deleted_idx WHERE cid > 0 AND state = 'deleted'").get() as { n: number }).n).toBe(15);
    raw.close();
    for (const qs of ["", "include_deleted=Y", "include_deleted=Y&state=deleted", "last_name=Name3", "last_name=Name3&include_deleted=Y&state=deleted", "page_size=7&page=3"]) {
      const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date() });
      const want = evaluateList(records, q);
      const got = await s.listRecords("demo", "person", q);
      expect({ qs, total: got.total, ids: got.records.map((r) => r.id) }).toEqual({ qs, total: want.total, ids: want.records.map((r) => r.id) });
    }
    await s.close();
  });
});

describe("0017_changes_record_idx", () => {
  it("keys a record's changes by (flock, record id, id), and its history reads as before", async () => {
    const path = join(dir, "0017.db");
    const record: StoredRecord = { id: "a".repeat(24), flock: "demo", type: "thing", state: "updated", data: { n: 1 }, displayValue: "", created: "2026-01-01T00:00:00.000000", lastUpdated: "2026-01-01T00:00:00.000000", version: 1 };
    const before = createSqliteStorage({ path });
    await before.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    await before.apply({ records: [{ kind: "insert", record }] });
    await before.apply({ records: [{ kind: "update", record: { ...record, data: { n: 2 }, state: "deleted", version: 2, lastUpdated: "2026-01-02T00:00:00.000000" }, expectedVersion: 1, changed: ["n"] }] });
    await before.apply({ records: [{ kind: "insert", record: { ...record, id: "b".repeat(24), type: "other" } }] });
    await before.close();
    const raw = new Database(path);
    const columns = () => (raw.prepare("SELECT name FROM pragma_index_info('changes_record_idx') ORDER BY seqno").all() as { name: string }[]).map((r) => r.name);
    rewindMigrations(raw, "0017_changes_record_idx");
    expect(columns()).toEqual(["flock", "type", "record_id", "id"]);

    const s = createSqliteStorage({ path });
    expect(columns()).toEqual(["flock", "record_id", "id"]);
    raw.close();
    const history = await s.readChangeHistory("demo", { type: "thing", recordId: record.id, skip: 0, limit: 10 });
    expect(history.total).toBe(2);
    expect(history.changes.map((c) => [c.version, c.state, c.previousState])).toEqual([
      [2, "deleted", "updated"],
      [1, "updated", null],
    ]);
    expect(history.oldest?.version).toBe(1);
    expect((await s.readChangeHistory("demo", { type: "other", recordId: record.id, skip: 0, limit: 10 })).total).toBe(0);
    await s.close();
  });
});
