/**
 * Tenant isolation: a key for flock alpha can neither read nor change flock beta's records
 * by any path, whether it names beta in the path (403) or uses beta's ids under alpha (404).
 */
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";
import { snapshot } from "./helpers/snapshot.js";

const key = KEYS.alice;

async function setup(): Promise<{ t: TestApp; B: string; D: string; fileUrl: string }> {
  const t = await createTestApp();
  const B = await seed(t, "beta", "journal", { title: "Beta secrets" });
  const D = await seed(t, "beta", "journal", { title: "Beta deleted" });
  await t.engine.delete("beta", "journal", D);
  const upload = await t.engine.attachFiles("beta", "journal", B, [
    { field: "files", filename: "secret.txt", contentType: "text/plain", bytes: new TextEncoder().encode("beta only") },
  ]);
  return { t, B, D, fileUrl: upload.updates.files![0]! };
}

type Call = [method: string, path: string, json?: unknown];

const calls = (B: string, D: string, flock: string): Call[] => [
  ["GET", `/api/v1/${flock}/`],
  ["GET", `/api/v1/${flock}/journal/`],
  ["GET", `/api/v1/${flock}/journal/?include_deleted=Y`],
  ["POST", `/api/v1/${flock}/journal/`, { title: "planted" }],
  ["GET", `/api/v1/${flock}/journal/${B}/`],
  ["PUT", `/api/v1/${flock}/journal/${B}/`, { title: "changed" }],
  ["PATCH", `/api/v1/${flock}/journal/${B}/`, { title: "changed" }],
  ["DELETE", `/api/v1/${flock}/journal/${B}/`],
  ["POST", `/api/v1/${flock}/journal/${D}/restore/`],
  ["PUT", `/api/v1/${flock}/journal/${B}/obfuscate/`],
  ["POST", `/api/v1/${flock}/journal/${B}/obfuscate/`],
  ["POST", `/api/v1/${flock}/journal/${B}/touch/`],
  ["POST", `/api/v1/${flock}/journal/${B}/recalc/`, { force: true }],
  ["GET", `/api/v1/${flock}/journal/${B}/display`],
];

describe("a key for alpha against flock beta", async () => {
  const { B, D } = await setup();

  it.each(calls(B, D, "beta"))("%s %s naming beta -> 403, nothing changed", async (method, path, json) => {
    const { t } = await setup();
    const before = await snapshot(t.storage);
    const res = await t.call(method, path, { key, json });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain("Beta");
    expect(await snapshot(t.storage)).toBe(before);
  });

  it.each(calls(B, D, "alpha").filter(([, path]) => path.includes(B) || path.includes(D)))(
    "%s %s (beta's id under alpha) -> 404, nothing changed",
    async (method, path, json) => {
      const { t } = await setup();
      const before = await snapshot(t.storage);
      const res = await t.call(method, path, { key, json });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Beta");
      expect(await snapshot(t.storage)).toBe(before);
    },
  );

  it("lists under alpha never include beta's records", async () => {
    const { t } = await setup();
    const res = await t.call("GET", "/api/v1/alpha/journal/?include_deleted=Y", { key });
    expect(await res.json()).toMatchObject({ total: 0, results: [] });
  });

  it("discovery does not list beta", async () => {
    const { t } = await setup();
    const res = await t.call("GET", "/api/v1/", { key });
    expect(JSON.stringify(await res.json())).not.toContain("beta");
  });

  it("beta's file: 403 by its URL, 404 under alpha's flock", async () => {
    const { t, fileUrl } = await setup();
    expect((await t.call("GET", fileUrl, { key })).status).toBe(403);
    expect((await t.call("GET", fileUrl.replace("/beta/", "/alpha/"), { key })).status).toBe(404);
    const own = await t.call("GET", fileUrl, { key: KEYS.bob });
    expect(own.status).toBe(200);
    expect(await own.text()).toBe("beta only");
  });

  it("a reference to beta's record is not expanded in alpha's single shape", async () => {
    const { t, B } = await setup();
    const uri = `/beta/journal/${B}/`;
    const res = await t.call("POST", "/api/v1/alpha/journal/", { key, json: { related: uri } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: { related: unknown } };
    expect(body.data.related).toBe(uri);
    expect(JSON.stringify(body)).not.toContain("Beta");
  });
});
