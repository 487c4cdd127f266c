/**
 * End to end: `serve --clock manual=ISO` from the real CLI: the service's time is the one
 * given, the admin printed at first start reads and moves it; a bad --clock is exit 2, a
 * bad config `clock` exit 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-clock-e2e-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe("serve --clock manual", () => {
  it("stands still at the given time and moves through the advance path", async () => {
    const p = startCli(["serve", "--db", ":memory:", "--port", "0", "--quiet", "--clock", "manual=2026-03-01T00:00:00Z"]);
    const username = /username: (\S+)/.exec(await p.line(/^\s+username: /))![1]!;
    const password = /password: (\S+)/.exec(await p.line(/^\s+password: /))![1]!;
    expect(await p.line(/manual clock at/)).toContain("2026-03-01T00:00:00.000Z");
    const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//))![1]!;
    const headers = { application: "Tests/clock-e2e/1", "content-type": "application/json" };
    const login = await fetch(`${url}/api/v1/auth/`, { method: "POST", headers, body: JSON.stringify({ username, password }) });
    const key = ((await login.json()) as { api_key: string }).api_key;
    const auth = { ...headers, authorization: `Bearer ${key}` };
    expect(await (await fetch(`${url}/api/v1/_clock/`, { headers: auth })).json()).toEqual({ now: "2026-03-01T00:00:00.000000" });
    const moved = await fetch(`${url}/api/v1/_clock/advance/`, { method: "POST", headers: auth, body: JSON.stringify({ to: "2026-03-15T12:00:00Z" }) });
    expect(await moved.json()).toEqual({ now: "2026-03-15T12:00:00.000000", fired: {} });
    const person = await fetch(`${url}/api/v1/demo/person/`, { method: "POST", headers: auth, body: JSON.stringify({ first_name: "Ada" }) });
    expect(((await person.json()) as { meta: { created: string } }).meta.created).toBe("2026-03-15T12:00:00.000000");
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("refuses a bad --clock (exit 2) and a bad config clock (exit 1)", async () => {
    const flag = await runCliToEnd(["serve", "--db", ":memory:", "--clock", "tomorrow"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr.join("\n")).toContain("--clock must be system, manual or manual=");
    const config = join(tmp, "clock.json");
    writeFileSync(config, JSON.stringify({ clock: "sometime" }));
    const bad = await runCliToEnd(["serve", "--db", ":memory:", "--config", config]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.join("\n")).toContain("clock");
  });
});
