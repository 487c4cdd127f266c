/**
 * A record's history is read by index: the page, its count, each row's previous change
 * and the record's oldest change all search `changes_record_idx`; none scans the log or
 * sorts it, on a file without ANALYZE statistics, as users' files are. (Behaviour is
 * covered by core's conformance suite.)
 */
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { afterAll, describe, expect, it } from "vitest";
import { historyStatements } from "./change-history.js";
import { openDatabase } from "./open.js";

const db = openDatabase({ path: ":memory:" });
afterAll(() => db.$client.close());
const insert = db.$client.prepare(
  "INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields, actor, application) VALUES ('demo', ?, ?, ?, 'updated', ?, ?, '[]', 'ada', NULL)",
);
let id = 0;
for (let version = 1; version <= 3; version++) {
  for (let r = 0; r < 300; r++) insert.run(++id, r % 2 ? "person" : "member", r.toString(16).padStart(24, "0"), version, `2026-01-0${version}T00:00:00.000000`);
}
// No ANALYZE: a user's file has no statistics, and the plans must hold without them.
const dialect = new SQLiteSyncDialect();

function plan(statement: Parameters<typeof dialect.sqlToQuery>[0]): string[] {
  const { sql, params } = dialect.sqlToQuery(statement);
  return (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}

describe("change history query plans", () => {
  const one = historyStatements("demo", { type: "person", recordId: (7).toString(16).padStart(24, "0"), from: "2026-01-02", skip: 0, limit: 10 });

  it.each([
    ["page", one.page],
    ["count", one.count],
    ["oldest", one.oldest!],
  ])("a record's %s searches changes_record_idx without a scan or a sort", (_name, statement) => {
    const lines = plan(statement);
    expect(lines.some((l) => l.includes("changes_record_idx (flock=? AND record_id=?"))).toBe(true);
    expect(lines.filter((l) => /^SCAN|TEMP B-TREE/.test(l))).toEqual([]);
  });

  it("each row's previous change is one index search", () => {
    expect(plan(one.page)).toContain("SEARCH p USING INDEX changes_record_idx (flock=? AND record_id=? AND id<?)");
    expect(plan(historyStatements("demo", { type: "person", recordId: (7).toString(16).padStart(24, "0"), skip: 0, limit: 10 }).page)).toContain(
      "SEARCH p USING INDEX changes_record_idx (flock=? AND record_id=? AND id<?)",
    );
  });

  it("a flock's page walks the log backwards by its key, without sorting, each row's previous change one index search", () => {
    const lines = plan(historyStatements("demo", { skip: 0, limit: 10 }).page);
    expect(lines[0]).toBe("SEARCH c USING INDEX changes_flock_id_idx (flock=?)");
    expect(lines).toContain("SEARCH p USING INDEX changes_record_idx (flock=? AND record_id=? AND id<?)");
    expect(lines.filter((l) => /TEMP B-TREE/.test(l))).toEqual([]);
  });
});
