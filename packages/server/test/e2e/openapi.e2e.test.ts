/**
 * End to end: `records-service openapi` prints the document a running server serves at
 * `GET /api/openapi.json`, and `/api/docs` with its assets comes from the server itself.
 */
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

afterAll(() => killAll());

describe("records-service openapi", () => {
  it("prints the served document; the reference page and its assets are served locally", async () => {
    const printed = await runCliToEnd(["openapi"]);
    expect(printed.code).toBe(0);
    const doc = JSON.parse(printed.stdout.join("\n"));
    expect(doc.openapi).toBe("3.1.0");

    const p = startCli(["serve", "--db", ":memory:", "--port", "0", "--quiet"]);
    const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//))![1]!;
    const served = await fetch(`${url}/api/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(doc);

    const page = await fetch(`${url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith("/"), asset).toBe(true);
      const res = await fetch(`${url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    expect((await fetch(`${url}/api/docs/assets/package.json`)).status).toBe(404);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("refuses arguments", async () => {
    const r = await runCliToEnd(["openapi", "extra"]);
    expect(r.code).toBe(2);
    expect(r.stderr.join("\n")).toContain("unexpected argument");
  });
});
