/**
 * @module bench/postgres-drivers
 * Which PostgreSQL driver the adapter is built on: node-postgres (`pg`) or postgres.js
 * (`postgres`), measured on the bench's list and create scenarios with the adapter's own
 * statements (same SQL text and parameters, prepared by both), on the same data in the
 * same run, alternating the drivers round by round. The figures are in docs/decisions.md.
 *
 *   npm install --no-save postgres@~3.4.9     # the driver the adapter does not use
 *   node --conditions=source --import tsx bench/postgres-drivers.ts [--persons 20000] [--url postgres://...]
 *
 * list: the three statements of `last_name=<common surname>`, page 1 of 25 (kept counts,
 * the count from the value index, the equality page). create: one person's insert as
 * `apply` writes it, in one transaction (record, its value rows through unnest, the kept
 * count). Each sequential (median ms of one operation) and with 4 concurrent workers on a
 * pool of 4 (operations per second).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createIdSource, derive, formatTimestamp, isIndexedByDefault, parseListQuery, validateInput, type StoredRecord } from "@records-service/core";
import { createPostgresStorage, compiler } from "@records-service/postgres";
import { PG_VALUE_KEY_BYTES, valueRows } from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { median, round3 } from "./lib/measure.js";
import { personBatch, seededBytes, BATCH_SIZE } from "./lib/persons.js";

/** One driver's way to run the scenarios' statements. */
interface Driver {
  name: string;
  /** Runs prepared statements one after another, outside a transaction. */
  run(statements: Statement[]): Promise<void>;
  /** Runs prepared statements in one transaction. */
  inTransaction(statements: Statement[]): Promise<void>;
  end(): Promise<void>;
}

interface Statement {
  name: string;
  text: string;
  params: unknown[];
}

const dialect = new PgDialect();

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { persons: { type: "string", default: "20000" }, url: { type: "string" }, seconds: { type: "string", default: "3" } },
  });
  const base = values.url ?? process.env.RECORDS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/";
  const persons = Number(values.persons);
  const name = `records_bench_drivers_${process.pid}`;
  const admin = new pg.Client({ connectionString: _withDb(base, "postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = _withDb(base, name);
  try {
    const sample = await _seed(url, persons);
    const drivers = [await _nodePostgres(url), await _postgresJs(url)];
    const list = await _listStatements(url, sample.lastName);
    let n = 0;
    const create = (): Statement[] => _createStatements(sample.cid, sample.fids, `zz${String(++n).padStart(22, "0")}`);
    const ops = { list: () => list, create };
    const result: Record<string, Record<string, number>> = {};
    for (const d of drivers) result[d.name] = {};
    for (const [op, make] of Object.entries(ops)) {
      const run = (d: Driver) => (op === "create" ? d.inTransaction(make()) : d.run(make()));
      // Sequential latency, alternating drivers in rounds of 200 after a warm-up.
      for (const d of drivers) for (let i = 0; i < 200; i++) await run(d);
      const times = new Map(drivers.map((d) => [d.name, [] as number[]]));
      for (let round = 0; round < 5; round++) {
        for (const d of drivers) {
          for (let i = 0; i < 200; i++) {
            const t = performance.now();
            await run(d);
            times.get(d.name)!.push(performance.now() - t);
          }
        }
      }
      for (const d of drivers) result[d.name]![`${op} ms (median, sequential)`] = round3(median(times.get(d.name)!));
      // Throughput with 4 workers, alternating drivers in 3 rounds.
      const rates = new Map(drivers.map((d) => [d.name, [] as number[]]));
      for (let round = 0; round < 3; round++) {
        for (const d of drivers) {
          const until = performance.now() + Number(values.seconds) * 1000;
          let done = 0;
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              while (performance.now() < until) {
                await run(d);
                done += 1;
              }
            }),
          );
          rates.get(d.name)!.push(done / Number(values.seconds));
        }
      }
      for (const d of drivers) result[d.name]![`${op} ops/s (4 workers)`] = Math.round(median(rates.get(d.name)!));
    }
    console.log(JSON.stringify({ persons, lastName: sample.lastName, result }, null, 2));
    for (const d of drivers) await d.end();
  } catch (e) {
    console.error(e instanceof Error ? e.stack : e);
    process.exitCode = 1;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

// --- internal ---

/** Seeds `count` persons through the adapter; returns the common surname and the ids the statements need. */
async function _seed(url: string, count: number) {
  const storage = await createPostgresStorage({ url });
  let at = new Date(Date.UTC(2025, 0, 1));
  const nextId = createIdSource({ now: () => at }, seededBytes(42));
  const names = new Map<string, number>();
  for (let b = 0; b * BATCH_SIZE < count; b++) {
    const writes: StoredRecord[] = personBatch(42, b, Math.min(BATCH_SIZE, count - b * BATCH_SIZE)).map((p) => {
      names.set(p.last_name, (names.get(p.last_name) ?? 0) + 1);
      const { data, displayValue } = derive("person", validateInput("person", { ...p }));
      at = new Date(at.getTime() + 1000);
      const now = formatTimestamp(at);
      return { id: nextId(), flock: "bench", type: "person", state: "updated", data, displayValue, created: now, lastUpdated: now, version: 1 };
    });
    await storage.apply({ records: writes.map((record) => ({ kind: "insert" as const, record })) });
  }
  await storage.close();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query("VACUUM ANALYZE");
  const cid = (await pool.query<{ cid: number }>("SELECT cid FROM collections WHERE type = 'person'")).rows[0]!.cid;
  const fids = new Map((await pool.query<{ fid: number; name: string }>("SELECT fid, name FROM fields WHERE cid = $1", [cid])).rows.map((r) => [r.name, r.fid]));
  await pool.end();
  const lastName = [...names].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  return { cid, fids, lastName };
}

/** The statements `listRecords` runs for `last_name=<name>`, page 1 of 25. */
async function _listStatements(url: string, lastName: string): Promise<Statement[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const cid = (await pool.query<{ cid: number }>("SELECT cid FROM collections WHERE type = 'person'")).rows[0]!.cid;
  const fid = (await pool.query<{ fid: number }>("SELECT fid FROM fields WHERE cid = $1 AND name = 'last_name'", [cid])).rows[0]!.fid;
  await pool.end();
  const q = parseListQuery(new URLSearchParams(`last_name=${encodeURIComponent(lastName)}`), { surface: "v1", now: new Date() });
  const fieldId = (n: string) => (n === "last_name" ? fid : undefined);
  return [
    _statement("l1", sql`SELECT state, n FROM collection_counts WHERE cid = ${cid}`),
    _statement("l2", compiler.matchCount(q, fieldId)!),
    _statement("l3", compiler.equalityPage(cid, q, fieldId, { limit: 25, offset: 0, fromEnd: false })!),
  ];
}

/** The statements `apply` runs for one new person (no references, no new field). */
function _createStatements(cid: number, fids: Map<string, number>, id: string): Statement[] {
  const data = derive("person", validateInput("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org"], tags: ["donor"] })).data;
  // Only the fields the value index keeps for a person (its defaults), as `apply` writes them.
  const kept = Object.entries(data).filter(([field]) => isIndexedByDefault("person", field));
  const rows = kept.flatMap(([field, value]) => valueRows(value).map((r) => ({ fid: fids.get(field)!, ...r })));
  const cut = (t: string) => Buffer.from(t).subarray(0, PG_VALUE_KEY_BYTES);
  const now = "2026-01-01T00:00:00.000000";
  return [
    _statement(
      "c1",
      sql`INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version)
          VALUES (${cid}, ${id}, 'updated', ${JSON.stringify(data)}, 'Ada Lovelace', ${now}, ${now}, 1) ON CONFLICT (id) DO NOTHING RETURNING rid`,
    ),
    // Multi-row VALUES, not unnest of arrays: postgres.js 3.4 sends a Buffer[] as bytea, not bytea[].
    _statement(
      "c2",
      sql`INSERT INTO record_values (rid, fid, kind, text, text_long, folded, folded_long, num)
          VALUES ${sql.join(
            rows.map((r) => sql`((SELECT rid FROM records WHERE id = ${id}), ${r.fid}, ${r.kind}, ${cut(r.text)}, NULL, ${r.folded === null ? null : cut(r.folded)}, NULL, ${r.num}::float8)`),
            sql`, `,
          )}`,
    ),
    _statement(
      "c3",
      sql`INSERT INTO collection_counts (cid, state, n) VALUES (${cid}, 'updated', 1)
          ON CONFLICT (cid, state) DO UPDATE SET n = collection_counts.n + excluded.n`,
    ),
  ];
}

function _statement(name: string, query: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name, text, params };
}

async function _nodePostgres(url: string): Promise<Driver> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {});
  return {
    name: `pg ${_version("pg")}`,
    async run(statements) {
      for (const s of statements) await pool.query({ name: s.name, text: s.text, values: s.params });
    },
    async inTransaction(statements) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        for (const s of statements) await client.query({ name: s.name, text: s.text, values: s.params });
        await client.query("COMMIT");
      } finally {
        client.release();
      }
    },
    end: () => pool.end(),
  };
}

async function _postgresJs(url: string): Promise<Driver> {
  // Not a dependency of the project: installed by hand for this measurement (see the header).
  const postgres = (await import("postgres" as string)).default as (url: string, opts: object) => _Sql;
  const db = postgres(url, { max: 4, onnotice: () => {} });
  return {
    name: `postgres.js ${_version("postgres")}`,
    async run(statements) {
      for (const s of statements) await db.unsafe(s.text, s.params, { prepare: true });
    },
    async inTransaction(statements) {
      await db.begin(async (tx) => {
        for (const s of statements) await tx.unsafe(s.text, s.params, { prepare: true });
      });
    },
    end: () => db.end(),
  };
}

interface _Sql {
  unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown>;
  begin(fn: (tx: _Sql) => Promise<void>): Promise<void>;
  end(): Promise<void>;
}

function _version(pkg: string): string {
  const file = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function _withDb(base: string, db: string): string {
  const u = new URL(base);
  u.pathname = `/${db}`;
  return u.toString();
}

await main();
