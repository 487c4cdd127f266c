/**
 * Every error answer in the contract's shape: a walk over every route the app serves, called
 * without credentials, with a key of another flock, with a key of the flock and a body that is
 * not JSON, and with a method the path does not take. Each 4xx or 5xx body must be
 * `{error, error_detail}` on a v1 path and `{title, description, error, type}` (a `link` may
 * be added) on a v2 one: a route that built an error body by hand, past the one error
 * handler (http/errors), fails here.
 */
import { describe, expect, it } from "vitest";
import { isV2Path } from "../src/http/errors.js";
import { createTestApp, KEYS, type CallOptions } from "./helpers/app.js";

const V1_KEYS = ["error", "error_detail"];
const V2_KEYS = ["description", "error", "title", "type"];

describe("error bodies", () => {
  it("every route's error answers have the contract's shape for their surface", async () => {
    const t = await createTestApp();
    const routes = new Map<string, { method: string; path: string }>();
    for (const r of t.app.routes) {
      if (r.method === "ALL" || r.path.includes("*")) continue;
      // Parameters filled with words no fixed path uses; `alpha` where a flock goes.
      const path = r.path.replace(/:flock\b/g, "alpha").replace(/:[a-z_]+(\{[^}]*\})?/g, "zz0");
      routes.set(`${r.method} ${path}`, { method: r.method, path });
    }
    expect(routes.size).toBeGreaterThan(100);
    const callers: CallOptions[] = [
      {},
      { key: KEYS.bob },
      { key: KEYS.alice, body: "{not json", headers: { "content-type": "application/json" } },
    ];
    const bad: string[] = [];
    let errors = 0;
    for (const { method, path } of routes.values()) {
      const sent: [string, CallOptions][] = callers.map((o) => [method, o]);
      sent.push([method === "DELETE" ? "PATCH" : "DELETE", { key: KEYS.alice }]);
      for (const [m, opts] of sent) {
        const res = await t.call(m, path, opts);
        if (res.status < 400) continue;
        errors++;
        const text = await res.text();
        // Bad input is the caller's fault: never a 5xx, save the documented 501 of a path not offered.
        if (res.status >= 500 && res.status !== 501) bad.push(`${m} ${path} (${res.status}): a server error for bad input: ${text.slice(0, 120)}`);
        const problem = _shapeProblem(path, text);
        if (problem) bad.push(`${m} ${path} (${res.status}): ${problem}: ${text.slice(0, 120)}`);
      }
    }
    expect(errors).toBeGreaterThan(300);
    expect(bad).toEqual([]);
  }, 120_000);
});

// --- internal ---

function _shapeProblem(path: string, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "not an object";
  const entries = Object.entries(body).filter(([k]) => k !== "link");
  const keys = entries.map(([k]) => k).sort();
  const want = isV2Path(path) ? V2_KEYS : V1_KEYS;
  if (keys.join() !== want.join()) return `keys ${keys.join()} instead of ${want.join()}`;
  if (entries.some(([, v]) => typeof v !== "string")) return "a field is not a string";
  if (/\bat .*:\d+:\d+/.test(text)) return "carries a stack trace";
  return undefined;
}
