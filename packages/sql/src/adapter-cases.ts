/**
 * @module adapter-cases
 * Test cases both SQL adapters run against their own statements (needs vitest): the
 * fixture record, the bounded scan window's walk, the equality page's special cases, and
 * the index registry's progress.
 * Each adapter's test supplies only how it opens storage and runs its scanner.
 */
import { parseListQuery, type ListPage, type ListQuery, type ScanPage, type Storage, type StoredRecord } from "@records-service/core";
import { expect, it } from "vitest";

/**
 * Record `n` of `type`: its id is `n` in hex, its display value `r<n>`.
 *
 * @example
 * testRecord(3, "person", { n: 3 }, { state: "deleted" })
 */
export function testRecord(
  n: number,
  type: string,
  data: Record<string, unknown>,
  opts: { flock?: string; state?: StoredRecord["state"] } = {},
): StoredRecord {
  return {
    id: n.toString(16).padStart(24, "0"),
    flock: opts.flock ?? "f1",
    type,
    state: opts.state ?? "updated",
    data,
    displayValue: `r${n}`,
    created: "2026-01-01T00:00:00.000000",
    lastUpdated: "2026-01-01T00:00:00.000000",
    version: 1,
  };
}

/** The inserts of `records`, as one change set's `records`. */
export function insertsOf(records: readonly StoredRecord[]): { kind: "insert"; record: StoredRecord }[] {
  return records.map((record) => ({ kind: "insert" as const, record }));
}

/** The scan-window cases: a filter of every kind, and the `n` of the person records it matches. */
export const SCAN_WINDOW_CASES: { qs: string; expected: number[] }[] = [
  { qs: "hit=yes", expected: [3, 40, 41, 97] },
  { qs: "tags__none=x", expected: [3, 40, 41, 97] },
  { qs: "name__startswith=Y", expected: [3, 40, 41, 97] },
  { qs: "n__gte=90", expected: [91, 93, 95, 97, 99] },
  { qs: "hit=yes&n__lt=41&mode=AND", expected: [3, 40] },
  { qs: "hit=yes&n=99&mode=OR", expected: [3, 40, 41, 97, 99] },
];

/**
 * The scan-window records of flock f1: 100 records, the even ones but the hits in another
 * collection (so the person rids have gaps), the hits few and far apart.
 */
export function scanWindowRecords(): StoredRecord[] {
  const hits = new Set([3, 40, 41, 97]);
  const records: StoredRecord[] = [];
  for (let n = 1; n <= 100; n++) {
    const type = n % 2 === 0 && !hits.has(n) ? "other" : "person";
    const hit = hits.has(n);
    records.push(testRecord(n, type, { n, hit: hit ? "yes" : "no", tags: hit ? null : ["x"], name: hit ? "Yes" : "No" }));
  }
  return records;
}

/** One step of an adapter's scanner over f1's persons, 2 records at a time. */
export type ScanStep = (query: ListQuery, cursor: string | null) => ScanPage | Promise<ScanPage>;

/**
 * Walks the persons matching `qs` with `step` (a scanner with a window of 5 rids) and
 * checks it visits `expected` once each, in order, in several steps.
 */
export async function expectScanWindowWalk(step: ScanStep, qs: string, expected: number[]): Promise<void> {
  const q = parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date() });
  const seen: number[] = [];
  let cursor: string | null = null;
  let steps = 0;
  do {
    const page: ScanPage = await step(q, cursor);
    expect(page.records.length).toBeLessThanOrEqual(2);
    seen.push(...page.records.map((r) => r.data.n as number));
    cursor = page.cursor;
    steps += 1;
  } while (cursor !== null && steps < 500);
  expect(seen).toEqual(expected);
  expect(steps).toBeGreaterThan(expected.length / 2); // the window made it walk in several steps
}

/** The equality-page records of type `thing` in `flock`: one text under several kinds, one deleted. */
export function equalityPageRecords(flock: string): StoredRecord[] {
  return [
    testRecord(1, "thing", { tags: ["1", 1, true, "true"] }, { flock }),
    testRecord(2, "thing", { tags: [1] }, { flock }),
    testRecord(3, "thing", { tags: ["1"] }, { flock, state: "deleted" }),
    testRecord(4, "thing", { tags: ["2"] }, { flock }),
    testRecord(5, "thing", { tags: ["1", 1] }, { flock }),
    testRecord(6, "thing", { tags: ["x", { a: 1 }, '{"a":1}', "1.0"] }, { flock }),
    testRecord(7, "thing", { tags: ['{"a":1}', "x"] }, { flock }),
  ];
}

/**
 * Registers the equality-page tests: `list(query)` lists the things of the flock holding
 * `equalityPageRecords`.
 */
export function equalityPageTests(list: (query: ListQuery) => Promise<ListPage<StoredRecord>>): void {
  const page = (qs: string) => list(parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") }));
  const ids = (p: { records: StoredRecord[] }) => p.records.map((r) => Number.parseInt(r.id, 16));

  it("give a record with the same text under two kinds once", async () => {
    const p = await page("tags=1");
    expect([ids(p), p.total]).toEqual([[1, 2, 5], 3]);
    expect(ids(await page("tags=true"))).toEqual([1]);
  });

  it("give each record once whatever the text (a string's alone, or a JSON entry's too)", async () => {
    const x = await page("tags=x");
    expect([ids(x), x.total]).toEqual([[6, 7], 2]);
    const json = await page(`tags=${encodeURIComponent('{"a":1}')}`);
    expect([ids(json), json.total]).toEqual([[6, 7], 2]);
    expect(ids(await page("tags=1.0"))).toEqual([6]); // no number's text (1.0 is "1")
  });

  it("show deleted records only when asked", async () => {
    const all = await page("tags=1&include_deleted=Y");
    expect([ids(all), all.total]).toEqual([[1, 2, 3, 5], 4]);
    const deleted = await page("tags=1&include_deleted=Y&state=deleted");
    expect([ids(deleted), deleted.total]).toEqual([[3], 1]);
  });

  it("page from either end", async () => {
    expect(ids(await page("tags=1&page_size=2&page=1"))).toEqual([1, 2]);
    const last = await page("tags=1&page_size=2&page=2");
    expect([ids(last), last.total]).toEqual([[5], 3]);
  });
}

/**
 * `n` persons created through 2025 (every timestamp differs; last updated a second later),
 * each with a date `joined` (its creation day) and a list `visits` of two 2025 timestamps:
 * what the date-cut row counts below are counted over.
 */
export function dateCutRecords(n: number): StoredRecord[] {
  const start = Date.UTC(2025, 0, 1);
  const span = 365 * 86_400_000 - 2000;
  const at = (ms: number) => new Date(ms).toISOString().replace("Z", "000");
  return Array.from({ length: n }, (_, i) => {
    const created = start + Math.floor((i * span) / n);
    const record = testRecord(i + 1, "person", { joined: at(created).slice(0, 10), visits: [at(created + 1000), at(start + 3_600_000 * (i % 24))] });
    return { ...record, created: at(created), lastUpdated: at(created + 1000) };
  });
}

/**
 * The statement rows (groups the database returns, before any merge in JS) of
 * `fieldCountsStatement` over `dateCutRecords` (at least 366 of them, so every day has one):
 * the database cuts, so a timestamp by month is twelve rows, not one per record.
 */
export const DATE_CUT_ROW_CASES: readonly { fields: readonly string[]; cuts: readonly (4 | 7 | 10 | undefined)[]; rows: number }[] = [
  { fields: ["created"], cuts: [7], rows: 12 },
  { fields: ["created"], cuts: [10], rows: 365 },
  { fields: ["last_updated"], cuts: [4], rows: 1 },
  { fields: ["joined"], cuts: [7], rows: 12 },
  { fields: ["visits"], cuts: [4], rows: 1 },
  { fields: ["created", "joined"], cuts: [7, 4], rows: 12 },
];

/**
 * A registry row's progress, as `listFieldIndexes` (one statement) and `setFieldIndex`
 * report it: the share of the records of the collections the row walks at or before its
 * cursor; an every-flock row walks only the flocks without a row of their own for the
 * field. `storage` is an empty SQL adapter's.
 */
export async function expectFieldIndexProgress(storage: Storage): Promise<void> {
  for (const f of ["f1", "f2"]) await storage.createFlock({ identifier: f, name: f, created: "2026-01-01T00:00:00.000000" });
  const things = [
    ...Array.from({ length: 10 }, (_, i) => testRecord(i + 1, "thing", { shoe: i, colour: "red" })),
    ...Array.from({ length: 6 }, (_, i) => testRecord(i + 101, "thing", { shoe: i, colour: "blue" }, { flock: "f2" })),
  ];
  await storage.apply({ records: insertsOf(things) });
  const progress = async (flock: string) => Object.fromEntries((await storage.listFieldIndexes(flock, "thing")).map((r) => [`${r.flock}/${r.field}`, r.progress]));
  expect(await storage.setFieldIndex("f1", "thing", "shoe", "index", "operator")).toMatchObject({ progress: 0 });
  await storage.stepFieldIndexes(4);
  expect(await progress("f1")).toEqual({ "f1/shoe": 0.4 });
  expect(await storage.setFieldIndex("f1", "thing", "shoe", "index", "operator")).toMatchObject({ state: "building", progress: 0.4 });
  // The every-flock row skips f2, whose own row rules there: it walks f1's 10 records only.
  await storage.setFieldIndex("f2", "thing", "colour", "drop", "operator");
  await storage.setFieldIndex("*", "thing", "colour", "index", "config");
  await storage.stepFieldIndexes(3); // rows in order: colour/*, colour/f2, shoe/f1
  expect(await progress("f1")).toEqual({ "*/colour": 0.3, "f1/shoe": 0.4 });
  expect(await progress("f2")).toEqual({ "*/colour": 0.3, "f2/colour": 0 });
  while ((await storage.stepFieldIndexes(5)) >= 5);
  expect(await progress("f1")).toEqual({ "*/colour": 1, "f1/shoe": 1 });
  expect(await progress("f2")).toEqual({ "*/colour": 1, "f2/colour": 1 });
}
