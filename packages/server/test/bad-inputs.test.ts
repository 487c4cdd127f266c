/**
 * Bad and odd requests: each gets a 4xx in the contract's error shape, never a 5xx, and
 * changes nothing (the storage fingerprint is the same before and after).
 */
import type { StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed, type CallOptions, type TestApp } from "./helpers/app.js";
import { snapshot } from "./helpers/snapshot.js";

const key = KEYS.alice;
/** A stored person whose id has hex letters, so its upper-cased form is a different string. */
const HEX_ID = "abcdef0123456789abcdef01";

/** Records the test requests refer to: `P` a person of alpha, `J` a journal, `B` a person of beta. */
async function setup(): Promise<{ t: TestApp; P: string; J: string; B: string }> {
  const t = await createTestApp();
  const P = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
  const J = await seed(t, "alpha", "journal", { title: "Minutes" });
  const B = await seed(t, "beta", "person", { first_name: "Bob" });
  const TS = "2026-01-01T00:00:00.000000";
  const hex: StoredRecord = {
    id: HEX_ID,
    flock: "alpha",
    type: "person",
    state: "updated",
    data: { first_name: "Hex" },
    displayValue: "Hex",
    created: TS,
    lastUpdated: TS,
    version: 1,
  };
  await t.storage.apply({ records: [{ kind: "insert", record: hex }] });
  return { t, P, J, B };
}

type Case = [name: string, method: string, path: string, opts: CallOptions, status: number];

const jsonHeader = { "content-type": "application/json" };
const cases = (P: string, J: string, B: string): Case[] => [
  // bodies
  ["invalid JSON on create", "POST", "/api/v1/alpha/person/", { key, body: "{first_name:", headers: jsonHeader }, 400],
  ["JSON array on create", "POST", "/api/v1/alpha/journal/", { key, json: [{ title: "x" }] }, 400],
  ["forged data event", "POST", "/api/v1/alpha/data_event/", { key, json: { name: "contact_created" } }, 400],
  ["forged task", "POST", "/api/v1/alpha/core_event/", { key, json: { tag: "queued" } }, 400],
  ["JSON string on create", "POST", "/api/v1/alpha/journal/", { key, json: "title" }, 400],
  ["JSON null on create", "POST", "/api/v1/alpha/journal/", { key, body: "null", headers: jsonHeader }, 400],
  ["empty body on create", "POST", "/api/v1/alpha/journal/", { key, headers: jsonHeader }, 400],
  ["text/plain on create", "POST", "/api/v1/alpha/journal/", { key, body: '{"title":"x"}', headers: { "content-type": "text/plain" } }, 400],
  ["form-encoded create", "POST", "/api/v1/alpha/journal/", { key, body: "title=x", headers: { "content-type": "application/x-www-form-urlencoded" } }, 400],
  ["multipart create", "POST", "/api/v1/alpha/journal/", { key, body: _form() }, 400],
  ["invalid JSON on update", "PUT", `/api/v1/alpha/person/${P}/`, { key, body: '{"first_name":', headers: jsonHeader }, 400],
  ["JSON array on update", "PUT", `/api/v1/alpha/person/${P}/`, { key, json: [1, 2] }, 400],
  ["text/xml on update", "PUT", `/api/v1/alpha/person/${P}/`, { key, body: "<x/>", headers: { "content-type": "text/xml" } }, 400],
  ["form-encoded update", "PATCH", `/api/v1/alpha/journal/${J}/`, { key, body: "title=x", headers: { "content-type": "application/x-www-form-urlencoded" } }, 400],
  ["broken multipart update", "PUT", `/api/v1/alpha/journal/${J}/`, { key, body: "--b\r\ngarbage", headers: { "content-type": "multipart/form-data; boundary=b" } }, 400],
  ["__proto__ key on create", "POST", "/api/v1/alpha/person/", { key, body: '{"__proto__": {"first_name": "x"}}', headers: jsonHeader }, 400],
  ["nested __proto__ key on update", "PUT", `/api/v1/alpha/journal/${J}/`, { key, body: '{"meta": [{"__proto__": {"a": 1}}]}', headers: jsonHeader }, 400],
  ["JSON nested 33 deep", "POST", "/api/v1/alpha/journal/", { key, body: `{"a": ${"[".repeat(32)}${"]".repeat(32)}}`, headers: jsonHeader }, 400],
  ["JSON nested 400,000 deep", "POST", "/api/v1/alpha/journal/", { key, body: `{"a": ${"[".repeat(4e5)}${"]".repeat(4e5)}}`, headers: jsonHeader }, 400],
  ["wrong field type", "PUT", `/api/v1/alpha/person/${P}/`, { key, json: { first_name: ["not", "text"] } }, 400],
  ["unknown person field", "POST", "/api/v1/alpha/person/", { key, json: { first_name: "X", favourite: 1 } }, 400],
  ["bad force on recalc", "POST", `/api/v1/alpha/person/${P}/recalc/?force=maybe`, { key }, 400],
  ["JSON array on recalc", "POST", `/api/v1/alpha/person/${P}/recalc/`, { key, json: [true] }, 400],
  // queries
  ["unknown modifier", "GET", "/api/v1/alpha/person/?first_name__foo=x", { key }, 400],
  ["v2-only modifier on v1", "GET", "/api/v1/alpha/journal/?tags__andlist=a,b", { key }, 400],
  ["page_size 0", "GET", "/api/v1/alpha/journal/?page_size=0", { key }, 400],
  ["page_size 1501", "GET", "/api/v1/alpha/journal/?page_size=1501", { key }, 400],
  ["page_size not a number", "GET", "/api/v1/alpha/journal/?page_size=ten", { key }, 400],
  ["page_size a fraction", "GET", "/api/v1/alpha/journal/?page_size=2.5", { key }, 400],
  ["limit too large", "GET", "/api/v1/alpha/journal/?limit=99999", { key }, 400],
  ["page 0", "GET", "/api/v1/alpha/journal/?page=0", { key }, 400],
  ["bad field name", "GET", "/api/v1/alpha/journal/?a-b=1", { key }, 400],
  ["NUL in a filter value", "GET", "/api/v1/alpha/journal/?title=%00", { key }, 200],
  ["unicode filter value", "GET", "/api/v1/alpha/journal/?title=%F0%9F%90%91%20mouton", { key }, 200],
  ["broken percent-encoding in the query", "GET", "/api/v1/alpha/journal/?title=%E0%A4%A", { key }, 200],
  ["very long filter value", "GET", `/api/v1/alpha/journal/?title=${"x".repeat(5000)}`, { key }, 400],
  // unknown things
  ["unknown type", "GET", "/api/v1/alpha/widget/", { key }, 404],
  ["unknown type on create", "POST", "/api/v1/alpha/widget/", { key, json: { a: 1 } }, 404],
  ["unknown id", "GET", "/api/v1/alpha/person/0123456789abcdef01234567/", { key }, 404],
  ["non-hex id", "GET", "/api/v1/alpha/person/zzzzzzzzzzzzzzzzzzzzzzzz/", { key }, 404],
  ["lower-case hex id", "GET", `/api/v1/alpha/person/${HEX_ID}/`, { key }, 200],
  ["upper-case id", "GET", `/api/v1/alpha/person/${HEX_ID.toUpperCase()}/`, { key }, 404],
  ["short id", "PUT", "/api/v1/alpha/person/123/", { key, json: { first_name: "X" } }, 404],
  ["record of another type", "GET", `/api/v1/alpha/journal/${P}/`, { key }, 404],
  ["beta's id under alpha (get)", "GET", `/api/v1/alpha/person/${B}/`, { key }, 404],
  ["beta's id under alpha (put)", "PUT", `/api/v1/alpha/person/${B}/`, { key, json: { first_name: "X" } }, 404],
  ["beta's id under alpha (delete)", "DELETE", `/api/v1/alpha/person/${B}/`, { key }, 404],
  ["unknown flock (admin)", "GET", "/api/v1/ghost/person/", { key: KEYS.admin }, 404],
  ["unknown flock (tenant)", "POST", "/api/v1/ghost/person/", { key, json: { first_name: "X" } }, 404],
  ["unknown path", "GET", "/api/v1/alpha/person/x/y/z/", { key }, 404],
  ["unknown top-level path", "GET", "/nothing-here", {}, 404],
  ["restore of a record not deleted", "POST", `/api/v1/alpha/person/${P}/restore/`, { key }, 409],
  // odd path segments
  ["NUL in the flock", "GET", "/api/v1/al%00pha/person/", { key }, 404],
  ["NUL in the type", "GET", "/api/v1/alpha/per%00son/", { key }, 404],
  ["NUL in the id", "GET", `/api/v1/alpha/person/${P.slice(0, 23)}%00/`, { key }, 404],
  ["encoded slash in the type", "GET", "/api/v1/alpha/person%2F..%2F/", { key }, 404],
  ["dot-dot in the type", "GET", "/api/v1/alpha/../beta/person/", { key }, 403],
  // URL parsing resolves %2E%2E like "..": this is GET /api/v1/alpha/, still under access control.
  ["encoded dot-dot in the id", "GET", "/api/v1/alpha/person/%2E%2E/", { key }, 200],
  ["encoded dot-dot escaping the flock", "GET", "/api/v1/alpha/%2E%2E/beta/person/", { key }, 403],
  ["unicode type", "POST", "/api/v1/alpha/%C3%A9l%C3%A8ve/", { key, json: { a: 1 } }, 404],
  ["very long type", "POST", `/api/v1/alpha/${"t".repeat(10_000)}/`, { key, json: { a: 1 } }, 404],
  ["very long id", "DELETE", `/api/v1/alpha/person/${"a".repeat(10_000)}/`, { key }, 404],
  ["very long flock (admin)", "GET", `/api/v1/${"f".repeat(10_000)}/`, { key: KEYS.admin }, 404],
  ["broken percent-encoding in the path", "GET", "/api/v1/alpha/person/%E0%A4%A/", { key }, 404],
  // methods
  ["GET on restore", "GET", `/api/v1/alpha/person/${P}/restore/`, { key }, 405],
  ["DELETE on the collection", "DELETE", "/api/v1/alpha/person/", { key }, 405],
  ["POST on a record", "POST", `/api/v1/alpha/person/${P}/`, { key, json: {} }, 405],
  ["PUT on display", "PUT", `/api/v1/alpha/person/${P}/display`, { key, json: {} }, 405],
];

describe("bad and odd requests", async () => {
  const { P, J, B } = await setup();
  it.each(cases(P, J, B))("%s: %s %s -> see table", async (_name, method, path, opts, status) => {
    const { t } = await setup();
    const before = await snapshot(t.storage);
    const res = await t.call(method, path, opts);
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    if (status >= 400) {
      expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
      expect(typeof body.error).toBe("string");
      expect(typeof body.error_detail).toBe("string");
    }
    expect(await snapshot(t.storage)).toBe(before);
  });
});

describe("405 answers name the accepted methods", () => {
  it.each([
    ["/api/v1/alpha/person/P/restore/", "POST"],
    ["/api/v1/alpha/person/P/display", "GET, HEAD"],
    ["/api/v1/alpha/person/", "POST, GET, HEAD"],
  ])("%s allows %s", async (path, allow) => {
    const { t, P } = await setup();
    const res = await t.call("PATCH", path.replace("P", P), { key, json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(allow.split(", ").sort());
  });
});

describe("body size limit", () => {
  const big = (n: number) => JSON.stringify({ title: "x".repeat(n) });

  it("accepts a body at the limit", async () => {
    const t = await createTestApp({ settings: { http: { bodyLimitBytes: 1000 } } });
    const body = big(1000 - big(0).length);
    expect(body.length).toBe(1000);
    const res = await t.call("POST", "/api/v1/alpha/journal/", { key, body, headers: jsonHeader });
    expect(res.status).toBe(201);
  });

  it.each([
    ["declared by Content-Length", (body: string) => ({ body, headers: { ...jsonHeader, "content-length": String(body.length) } })],
    ["understated Content-Length", (body: string) => ({ body, headers: { ...jsonHeader, "content-length": "10" } })],
    ["streamed without a length", (body: string) => ({ body: _stream(body), headers: jsonHeader })],
  ])("answers 413 one byte over the limit (%s), changing nothing", async (_name, make) => {
    const t = await createTestApp({ settings: { http: { bodyLimitBytes: 1000 } } });
    const before = await snapshot(t.storage);
    const res = await t.call("POST", "/api/v1/alpha/journal/", { key, ...make(big(1000 - big(0).length + 1)) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "body too large" });
    expect(await snapshot(t.storage)).toBe(before);
  });

  it("answers 413 for a body over the default 10 MiB, also on upload and login", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "journal", { title: "x" });
    const huge = "x".repeat(10 * 1024 * 1024 + 1);
    const form = new FormData();
    form.set("files", new File([huge], "big.txt", { type: "text/plain" }));
    expect((await t.call("PUT", `/api/v1/alpha/journal/${id}/`, { key, body: form })).status).toBe(413);
    expect((await t.call("POST", "/api/v1/auth/", { body: huge, headers: jsonHeader })).status).toBe(413);
    expect((await t.engine.get("alpha", "journal", id)).data.files).toBeUndefined();
  });
});

describe("JSON nesting limit", () => {
  it("accepts a body nested exactly 32 deep", async () => {
    const t = await createTestApp();
    const body = `{"a": ${"[".repeat(31)}${"]".repeat(31)}}`;
    const res = await t.call("POST", "/api/v1/alpha/journal/", { key, body, headers: jsonHeader });
    expect(res.status).toBe(201);
  });
});

describe("v2 paths answer errors as {title, description}", () => {
  it("unknown v2 path", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/v2/alpha/nothing/here/at/all/");
    expect(res.status).toBe(404);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
  });
});

describe("unexpected failures", () => {
  it("answer 500 without internals and log the error", async () => {
    const t = await createTestApp();
    t.storage.summarizeTypes = async () => {
      throw new Error("SQLITE_CORRUPT: secret table layout");
    };
    const res = await t.call("GET", "/api/v1/alpha/", { key });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "internal error", error_detail: expect.any(String) });
    expect(text).not.toContain("SQLITE");
    expect(text).not.toContain("at ");
    expect(t.logs.at(-1)).toMatchObject({ status: 500, error: "SQLITE_CORRUPT: secret table layout" });
  });
});

// --- internal ---

function _form(): FormData {
  const f = new FormData();
  f.set("title", "x");
  return f;
}

function _stream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.slice(i, i + 100));
      controller.close();
    },
  });
}
