/**
 * No request is a 5xx, whatever text a client puts where: random field names and values
 * (lone surrogates, NUL, quotes, backslashes, SQL wildcards, very long texts, numbers too
 * large) in bodies, filters, sorts, group counts and ids, and any route of the app with any
 * parameters and body, on every adapter. A bad input is a 4xx; a good one is served; 501 is
 * the documented refusal of the hosted operations not offered (v2-gateway.md). Each
 * failure fast-check finds is shrunk to the one request.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

/** Texts chosen to break quoting, escaping, encodings and bounds; mixed with arbitrary ones. */
const NASTY = ["\u0000", "\ud800", "\udfff", "a\u0000b", "x\ud800y", "%", "_", "\\", '"', "'", "\\u0000", "%_\\", "İ", "ß", "\u{1F600}", "", " ", "null", "0", "-1e400", "a".repeat(3000)];
const textArb = fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: "binary", maxLength: 12 }), fc.string({ maxLength: 6 }));
/** A text for a URL: any text, or a raw escape (`e` keeps it as it is). */
const urlTextArb = fc.oneof(textArb, fc.constantFrom("%", "%FF", "%ED%A0%80", "%00", "%C0%AF", "%2"));
const nameArb = fc.oneof(fc.constantFrom("title", "kind", "notes", "dedupe_key", "tags", "status", "date", "x_ref", "n"), textArb);
const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  textArb,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(textArb, { maxLength: 3 }),
  fc.dictionary(textArb, textArb, { maxKeys: 2 }),
);
const OPS = ["", "__ne", "__contains", "__icontains", "__startswith", "__startswithi", "__near", "__gte", "__lt", "__or", "__and", "__in", "__isnull", "__bad"];

/** One request: what a client might send, good or bad; `route` is the route template it was made from, if any. */
type Call = { method: string; path: string; json?: unknown; route?: string };

/** Percent-encodes every UTF-8 byte of `s` (a lone surrogate as U+FFFD's, as a client's encoder would), or passes a raw escape as it is. */
const e = (s: string): string => (RAW_ESCAPES.includes(s) ? s : [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""));
/** Escapes a URL may hold that decode to no text: a lone `%`, a byte that is not UTF-8, an encoded surrogate, NUL. */
const RAW_ESCAPES = ["%", "%FF", "%ED%A0%80", "%00", "%C0%AF", "%2"];
/** The app's routes (`app.routes`) other than the manual clock's, as templates. */
type Route = { method: string; path: string };

/** Any route of the app with its `:params` filled (the test flock, a type, a stored id, or any text) and any body. */
const anyRouteArb = (routes: readonly Route[], ids: readonly string[]): fc.Arbitrary<Call> =>
  fc
    .tuple(
      fc.constantFrom(...routes),
      fc.array(fc.oneof(fc.constantFrom("alpha", "journal", "person", "membership", "event", ...ids), urlTextArb), { minLength: 4, maxLength: 4 }),
      fc.option(fc.dictionary(nameArb, valueArb, { maxKeys: 3 }), { nil: undefined }),
    )
    .map(([r, fill, json]) => {
      let i = 0;
      const path = r.path.replace(/:[a-z_]+/gi, (m) => (m === ":flock" ? "alpha" : e(fill[i++ % fill.length]!)));
      return { method: r.method, path, route: `${r.method} ${r.path}`, ...(json === undefined || r.method === "GET" ? {} : { json }) };
    });

const callArb = (ids: readonly string[], routes: readonly Route[]): fc.Arbitrary<Call> =>
  fc.oneof(
    anyRouteArb(routes, ids),
    fc.dictionary(nameArb, valueArb, { maxKeys: 4 }).map((json) => ({ method: "POST", path: "/api/v2/alpha/journal/", json })),
    fc.record({ first_name: valueArb, last_name: textArb, email: fc.array(textArb, { maxLength: 2 }) }).map((json) => ({ method: "POST", path: "/api/v2/alpha/person/", json })),
    fc.tuple(fc.constantFrom(...ids), fc.dictionary(nameArb, valueArb, { maxKeys: 3 })).map(([id, json]) => ({ method: "PUT", path: `/api/v2/alpha/journal/${id}/`, json })),
    fc.tuple(fc.oneof(nameArb, urlTextArb), fc.constantFrom(...OPS), urlTextArb, fc.option(nameArb, { nil: undefined })).map(([f, op, v, sort]) => ({
      method: "GET",
      path: `/api/v2/alpha/journal/?${e(f)}${op}=${e(v)}${sort === undefined ? "" : `&sort=${e(sort)}`}`,
    })),
    fc.tuple(fc.constantFrom("distinct/journal", "groupby/journal"), fc.oneof(nameArb, urlTextArb)).map(([what, f]) => ({
      method: "GET",
      path: `/api/v2/alpha/${what}/${e(f)}${what.startsWith("groupby") ? "/count" : ""}`,
    })),
    fc.tuple(fc.oneof(urlTextArb, fc.constantFrom(...ids)), fc.constantFrom("GET", "DELETE")).map(([id, method]) => ({ method, path: `/api/v2/alpha/journal/${e(id)}/` })),
    urlTextArb.map((q) => ({ method: "GET", path: `/api/v2/alpha/search/?q=${e(q)}` })),
  );

describe.each(EVERY_ADAPTER)("no request is a 5xx but a documented 501 (%s)", (name) => {
  const setup = setupOn(name);

  it.skipIf(!adapterAvailable(name))("answers every random request with a status under 500, or the documented 501", async () => {
    const t = await setup();
    const ids: string[] = [];
    for (const title of ["one", "x\ud800y", "a\u0000b"]) {
      const res = await t.call("POST", "/api/v2/alpha/journal/", { key: KEYS.alice, json: { title, kind: "minutes", dedupe_key: title } });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { uri: string }).uri.split("/").filter(Boolean).pop()!);
    }
    const routes = t.app.routes.filter((r) => r.method !== "ALL" && !r.path.includes("_clock") && !r.path.includes("*"));
    const notOffered = await _documented501(t);
    expect(notOffered.size).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.array(callArb(ids, routes), { minLength: 1, maxLength: 6 }), async (calls) => {
        for (const c of calls) {
          // Attributed, and a minute apart, so no rate limit answers for the service.
          t.clock.advance(60_000);
          const res = await t.call(c.method, c.path, { key: KEYS.alice, headers: { application: "Records/Fuzz" }, ...(c.json === undefined ? {} : { json: c.json }) });
          // The change feed is an open event stream: its status is what counts.
          const stream = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
          const text = stream ? (await res.body?.cancel(), "") : await res.text();
          // 501 only from a route the OpenAPI document says answers it (a hosted operation not offered).
          const documented = c.route !== undefined && notOffered.has(c.route);
          expect({ ...c, status: res.status, text: text.slice(0, 300) }).toMatchObject({ status: expect.toSatisfy((s: number) => s < 500 || (s === 501 && documented)) });
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60), seed: Number(process.env.FUZZ_SEED ?? 20261129) },
    );
  });
});

/** The routes (`METHOD /path/:param`) the app's OpenAPI document says answer 501. */
async function _documented501(t: Awaited<ReturnType<ReturnType<typeof setupOn>>>): Promise<Set<string>> {
  const doc = (await (await t.call("GET", "/api/openapi.json", { key: KEYS.alice })).json()) as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  const out = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) if (op.responses?.["501"]) out.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`);
  }
  return out;
}
