/**
 * The bounds that keep one request from stalling the server (issue 15, point 4), through
 * HTTP on both surfaces: each is a 4xx in the contract's shape naming the limit and the
 * value accepted, changes nothing, and the value at the limit is still accepted.
 */
import {
  MAX_CONTENT_TYPE_LENGTH,
  MAX_FIELD_NAME_LENGTH,
  MAX_FIELDS_PER_RECORD,
  MAX_FILE_NAME_LENGTH,
  MAX_LIST_ANSWER_LENGTH,
  MAX_LIST_ENTRIES,
  MAX_RECORD_DATA_LENGTH,
  MAX_TEXT_VALUE_LENGTH,
  MAX_VALUES_PER_RECORD,
  LIST_ELEMENT_MIN_OVERHEAD,
  toListWrapper,
  type ChangeSet,
} from "@records-service/core";
import { describe, expect, it } from "vitest";
import { MAX_BODY_PARTS, MAX_JSON_BODY_BYTES, MAX_JSON_VALUES } from "../src/http/limits.js";
import { createTestApp, KEYS, seed, type CallOptions, type TestApp } from "./helpers/app.js";
import { snapshot } from "./helpers/snapshot.js";

const key = KEYS.alice;
const headers = { application: "Tests/records-service/1" };
const JSON_HEADERS = { ...headers, "content-type": "application/json" };

/** `n` fields named f0.. holding `value(i)`. */
const fields = (n: number, value: (i: number) => unknown = (i) => i) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, value(i)]));
/** A list of `n` distinct numbers. */
const list = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
/** A form of `n` file parts named `field`. */
const files = (n: number, field = "files", name = "a.txt", type = "text/plain") => {
  const form = new FormData();
  for (let i = 0; i < n; i++) form.append(field, new File(["x"], name, { type }));
  return form;
};
/** Data of exactly `length` characters of JSON: four texts `{"t0":"xx..","t1":..}`, each within MAX_TEXT_VALUE_LENGTH. */
const dataOfLength = (length: number) => {
  const texts = length - 33; // braces, four `"tN":""` and three commas
  const data = Object.fromEntries([0, 1, 2, 3].map((i) => [`t${i}`, "x".repeat(Math.floor(texts / 4) + (i < texts % 4 ? 1 : 0))]));
  expect(JSON.stringify(data)).toHaveLength(length);
  return data;
};

type Refusal = {
  name: string;
  /** Records to create first (journal `J` is always there). */
  prepare?: (t: TestApp, J: string) => Promise<void>;
  request: (J: string) => [method: string, path: string, opts: CallOptions];
  status: number;
  error: string;
  /** Text the detail must hold: the limit's value, and its name where the server names it. */
  detail: RegExp;
  /** The same request at the limit, accepted. */
  atLimit?: (J: string) => [method: string, path: string, opts: CallOptions];
};

const REFUSALS: Refusal[] = [
  {
    name: "a list past MAX_LIST_ENTRIES",
    request: () => ["POST", "/alpha/journal/", { json: { tags: list(MAX_LIST_ENTRIES + 1) } }],
    status: 400,
    error: "invalid field value",
    detail: new RegExp(`list of ${MAX_LIST_ENTRIES + 1} entries; at most ${MAX_LIST_ENTRIES}`),
    atLimit: () => ["POST", "/alpha/journal/", { json: { tags: list(MAX_LIST_ENTRIES) } }],
  },
  {
    name: "a nested list past MAX_LIST_ENTRIES",
    request: () => ["POST", "/alpha/journal/", { json: { geo: { points: list(MAX_LIST_ENTRIES + 1) } } }],
    status: 400,
    error: "invalid field value",
    detail: new RegExp(`at most ${MAX_LIST_ENTRIES}`),
  },
  {
    name: "an upload that would take a list past MAX_LIST_ENTRIES",
    prepare: async (t, J) => void (await t.engine.update("alpha", "journal", J, { files: list(MAX_LIST_ENTRIES - 1).map(String) })),
    request: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(2) }],
    status: 400,
    error: "invalid field value",
    detail: new RegExp(`list of ${MAX_LIST_ENTRIES + 1} entries; at most ${MAX_LIST_ENTRIES}`),
    atLimit: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(1) }],
  },
  {
    name: "a record past MAX_FIELDS_PER_RECORD (new field names)",
    request: () => ["POST", "/alpha/journal/", { json: fields(MAX_FIELDS_PER_RECORD + 1) }],
    status: 400,
    error: "too many fields",
    detail: new RegExp(`at most ${MAX_FIELDS_PER_RECORD} fields; this write would give it ${MAX_FIELDS_PER_RECORD + 1} \\(${MAX_FIELDS_PER_RECORD + 1} new`),
    atLimit: () => ["POST", "/alpha/journal/", { json: fields(MAX_FIELDS_PER_RECORD) }],
  },
  {
    name: "an update adding field names past MAX_FIELDS_PER_RECORD",
    // The journal has `title` and 254 more: 255 fields.
    prepare: async (t, J) => void (await t.engine.update("alpha", "journal", J, fields(MAX_FIELDS_PER_RECORD - 2))),
    request: (J) => ["PATCH", `/alpha/journal/${J}/`, { json: { new_a: 1, new_b: 2 } }],
    status: 400,
    error: "too many fields",
    detail: new RegExp(`at most ${MAX_FIELDS_PER_RECORD} fields; this write would give it ${MAX_FIELDS_PER_RECORD + 1} \\(2 new: "new_a", "new_b"\\)`),
    atLimit: (J) => ["PATCH", `/alpha/journal/${J}/`, { json: { new_a: 1 } }],
  },
  {
    name: "a record past MAX_VALUES_PER_RECORD",
    // Lists of 999 entries: 1000 values each; with `title`, one more value passes the bound.
    request: () => ["POST", "/alpha/journal/", { json: { ...fields(MAX_VALUES_PER_RECORD / 1000, (i) => list(999, i * 1000)), title: "x" } }],
    status: 400,
    error: "too many values",
    detail: new RegExp(`at most ${MAX_VALUES_PER_RECORD} values .* would give it ${MAX_VALUES_PER_RECORD + 1}`),
    atLimit: () => ["POST", "/alpha/journal/", { json: fields(MAX_VALUES_PER_RECORD / 1000, (i) => list(999, i * 1000)) }],
  },
  {
    name: "a record past MAX_RECORD_DATA_LENGTH, grown by updates",
    prepare: async (t, J) => void (await t.engine.update("alpha", "journal", J, fields(3, () => "y".repeat(MAX_TEXT_VALUE_LENGTH)))),
    request: (J) => ["PUT", `/alpha/journal/${J}/`, { json: { more: "z".repeat(MAX_TEXT_VALUE_LENGTH) } }],
    status: 400,
    error: "record too large",
    detail: new RegExp(`at most ${MAX_RECORD_DATA_LENGTH} characters as JSON`),
    atLimit: (J) => ["PUT", `/alpha/journal/${J}/`, { json: { more: "z".repeat(MAX_TEXT_VALUE_LENGTH - 200) } }],
  },
  {
    name: "a text past MAX_TEXT_VALUE_LENGTH",
    request: () => ["POST", "/alpha/journal/", { json: { notes: "n".repeat(MAX_TEXT_VALUE_LENGTH + 1) } }],
    status: 400,
    error: "invalid field value",
    detail: new RegExp(`at most ${MAX_TEXT_VALUE_LENGTH} are accepted`),
    atLimit: () => ["POST", "/alpha/journal/", { json: { notes: "n".repeat(MAX_TEXT_VALUE_LENGTH) } }],
  },
  {
    name: "a field name past MAX_FIELD_NAME_LENGTH",
    request: () => ["POST", "/alpha/journal/", { json: { ["n".repeat(MAX_FIELD_NAME_LENGTH + 1)]: 1 } }],
    status: 400,
    error: "invalid field name",
    detail: new RegExp(`at most ${MAX_FIELD_NAME_LENGTH} characters`),
    atLimit: () => ["POST", "/alpha/journal/", { json: { ["n".repeat(MAX_FIELD_NAME_LENGTH)]: 1 } }],
  },
  {
    name: "a JSON body past MAX_JSON_BODY_BYTES",
    request: () => ["POST", "/alpha/journal/", { body: JSON.stringify({ a: "x".repeat(MAX_JSON_BODY_BYTES) }), headers: JSON_HEADERS }],
    status: 413,
    error: "body too large",
    detail: new RegExp(`at most ${MAX_JSON_BODY_BYTES} bytes .*MAX_JSON_BODY_BYTES`),
  },
  {
    name: "a JSON body past MAX_JSON_VALUES",
    request: () => ["POST", "/alpha/journal/", { body: `{"a":[${"{},".repeat(MAX_JSON_VALUES - 2)}{}]}`, headers: JSON_HEADERS }],
    status: 400,
    error: "too many values",
    detail: new RegExp(`at most ${MAX_JSON_VALUES} values \\(MAX_JSON_VALUES`),
  },
  {
    name: "a multipart body past MAX_BODY_PARTS",
    request: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(MAX_BODY_PARTS + 1) }],
    status: 400,
    error: "too many parts",
    detail: new RegExp(`at most ${MAX_BODY_PARTS} parts \\(MAX_BODY_PARTS\\)`),
    atLimit: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(MAX_BODY_PARTS) }],
  },
  {
    name: "a file name past MAX_FILE_NAME_LENGTH",
    request: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(1, "files", `${"n".repeat(MAX_FILE_NAME_LENGTH - 3)}.txt`) }],
    status: 400,
    error: "file name too long",
    detail: new RegExp(`at most ${MAX_FILE_NAME_LENGTH} characters`),
    atLimit: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(1, "files", `${"n".repeat(MAX_FILE_NAME_LENGTH - 4)}.txt`) }],
  },
  {
    name: "a content type past MAX_CONTENT_TYPE_LENGTH",
    request: (J) => ["PUT", `/alpha/journal/${J}/`, { body: files(1, "files", "a.txt", `text/${"x".repeat(MAX_CONTENT_TYPE_LENGTH)}`) }],
    status: 400,
    error: "content type too long",
    detail: new RegExp(`at most ${MAX_CONTENT_TYPE_LENGTH} characters`),
  },
];

describe.each(["v1", "v2"] as const)("bounds on %s", (surface) => {
  it.each(REFUSALS)("$name: $status naming the limit, nothing changed", async (c) => {
    const t = await createTestApp();
    const J = await seed(t, "alpha", "journal", { title: "Minutes" });
    await c.prepare?.(t, J);
    const before = await snapshot(t.storage);
    const writes = _countWrites(t);
    const res = await _send(t, surface, c.request(J));
    expect(res.status).toBe(c.status);
    const body = (await res.json()) as Record<string, string>;
    const [error, detail] = surface === "v1" ? [body.error, body.error_detail] : [body.title, body.description];
    expect(Object.keys(body).sort()).toEqual(surface === "v1" ? ["error", "error_detail"] : ["description", "error", "title", "type"]);
    expect(error).toBe(c.error);
    expect(detail).toMatch(c.detail);
    expect(writes()).toBe(0);
    expect(await snapshot(t.storage)).toBe(before);
    if (c.atLimit) expect((await _send(t, surface, c.atLimit(J))).status).toBeLessThan(300);
  });
});

describe("form-encoded bodies", () => {
  it("refuses more than MAX_BODY_PARTS fields at login, before parsing them", async () => {
    const t = await createTestApp();
    const body = `username=a&password=b${"&x=1".repeat(MAX_BODY_PARTS - 1)}`;
    const res = await t.call("POST", "/api/v1/auth/", { body, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "too many parts", error_detail: expect.stringContaining(`at most ${MAX_BODY_PARTS} fields`) });
  });
});

describe("list answers", () => {
  it.each(["v1", "v2"] as const)("%s: a page past MAX_LIST_ANSWER_LENGTH is a 400 suggesting a page_size that fits", async (surface) => {
    const t = await createTestApp();
    // Four records whose data fill exactly a quarter of the bound each: storage reads them
    // (data and the least overhead fit), the answer around them does not.
    const quarter = MAX_LIST_ANSWER_LENGTH / 4 - LIST_ELEMENT_MIN_OVERHEAD;
    for (let i = 0; i < 4; i++) await seed(t, "alpha", "journal", dataOfLength(quarter));
    const res = await t.call("GET", `/api/${surface}/alpha/journal/?page_size=10`, { key, headers });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, string>;
    const detail = surface === "v1" ? body.error_detail : body.description;
    expect(surface === "v1" ? body.error : body.title).toBe("answer too large");
    expect(detail).toContain(`longer than ${MAX_LIST_ANSWER_LENGTH} characters of JSON`);
    expect(detail).toContain("page_size=3 or less");
    const fits = await t.call("GET", `/api/${surface}/alpha/journal/?page_size=3`, { key, headers });
    expect(fits.status).toBe(200);
    const text = await fits.text();
    expect(text.length).toBeLessThanOrEqual(MAX_LIST_ANSWER_LENGTH + 1000);
    expect(JSON.parse(text)).toMatchObject({ total: 4, page_size: 3, pages: 2 });
  });

  it("stops reading the page in storage, before parsing records past the bound", async () => {
    const t = await createTestApp();
    for (let i = 0; i < 6; i++) await seed(t, "alpha", "journal", dataOfLength(MAX_RECORD_DATA_LENGTH));
    const parsed: unknown[] = [];
    const listRecords = t.storage.listRecords.bind(t.storage);
    t.storage.listRecords = async (...args) => {
      const page = await listRecords(...args);
      parsed.push(...page.records);
      return page;
    };
    const res = await t.call("GET", "/api/v1/alpha/journal/?page_size=6", { key, headers });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "answer too large", error_detail: expect.stringContaining("page_size=3 or less") });
    expect(parsed).toEqual([]); // refused by storage itself: no page came back
  });

  it("answers the same text as before for pages that fit", async () => {
    const t = await createTestApp();
    for (let i = 0; i < 3; i++) await seed(t, "alpha", "person", { first_name: `P${i}`, email: [`p${i}@example.org;home`] });
    const res = await t.call("GET", "/api/v1/alpha/person/?page_size=2&page=2", { key, headers });
    const page = await t.engine.list("alpha", "person", { filters: [], mode: "AND", states: ["updated"], page: 2, pageSize: 2 });
    expect(await res.text()).toBe(JSON.stringify(toListWrapper(page, { filters: [], mode: "AND", states: ["updated"], page: 2, pageSize: 2 })));
  });
});

// --- internal ---

function _send(t: TestApp, surface: "v1" | "v2", [method, path, opts]: [string, string, CallOptions]): Promise<Response> {
  return t.call(method, `/api/${surface}${path}`, { key, ...opts, headers: { ...headers, ...opts.headers } });
}

/** Counts `storage.apply` calls from now on: a refused request must make none. */
function _countWrites(t: TestApp): () => number {
  let n = 0;
  const apply = t.storage.apply.bind(t.storage);
  t.storage.apply = (changes: ChangeSet) => {
    n += 1;
    return apply(changes);
  };
  return () => n;
}
