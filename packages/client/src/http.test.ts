import { describe, expect, it } from "vitest";
import { RecordsApiError } from "./errors.js";
import { createRequester } from "./http.js";

function fakeFetch(answers: Response[]) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const f = (async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    return answers.shift() ?? new Response("{}", { status: 200 });
  }) as unknown as typeof fetch;
  return { f, calls };
}

const throttled = (retryAfter?: string) =>
  new Response(JSON.stringify({ error: "too many requests", error_detail: "slow down" }), { status: 429, headers: retryAfter ? { "retry-after": retryAfter } : {} });

describe("createRequester", () => {
  it("waits Retry-After on a 429 and retries, sending APPLICATION every time", async () => {
    const { f, calls } = fakeFetch([throttled("2"), throttled(), new Response('{"message":"pong"}')]);
    const waits: number[] = [];
    const request = createRequester({ baseUrl: "http://x/", application: "Acme/Sync/1.0", fetch: f, sleep: async (ms) => void waits.push(ms) });
    expect(await request("GET", "/api/v1/ping/", { token: "k" })).toEqual({ message: "pong" });
    expect(waits).toEqual([2000, 1000]);
    expect(calls.map((c) => c.url)).toEqual(["http://x/api/v1/ping/", "http://x/api/v1/ping/", "http://x/api/v1/ping/"]);
    expect(calls.every((c) => c.headers.APPLICATION === "Acme/Sync/1.0" && c.headers.Authorization === "Bearer k")).toBe(true);
  });

  it("gives up after maxRetries, or at once when Retry-After is longer than maxWaitMs, with the 429 as the error", async () => {
    const bounded = fakeFetch([throttled("1"), throttled("1"), throttled("1")]);
    const request = createRequester({ baseUrl: "http://x", application: "A/B/1", fetch: bounded.f, retry: { maxRetries: 1 }, sleep: async () => {} });
    const e = await request("GET", "/p").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RecordsApiError);
    expect(e).toMatchObject({ status: 429, title: "too many requests", detail: "slow down", body: { error: "too many requests", error_detail: "slow down" } });
    expect(bounded.calls).toHaveLength(2);

    const long = fakeFetch([throttled("3600")]);
    const waits: number[] = [];
    const impatient = createRequester({ baseUrl: "http://x", application: "A/B/1", fetch: long.f, retry: { maxWaitMs: 5000 }, sleep: async (ms) => void waits.push(ms) });
    await expect(impatient("GET", "/p")).rejects.toMatchObject({ status: 429 });
    expect(waits).toEqual([]);
  });

  it("reads both error shapes", async () => {
    const { f } = fakeFetch([
      new Response(JSON.stringify({ title: "signature missing", description: "a signature parameter is required" }), { status: 401 }),
      new Response("not json", { status: 502 }),
    ]);
    const request = createRequester({ baseUrl: "http://x", application: "A/B/1", fetch: f });
    await expect(request("GET", "/api/v2/demo/member/1/card/")).rejects.toMatchObject({ status: 401, isV2: true, title: "signature missing" });
    await expect(request("GET", "/x")).rejects.toMatchObject({ status: 502, body: undefined, title: "HTTP 502" });
  });
});
