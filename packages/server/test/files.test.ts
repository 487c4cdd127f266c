/**
 * Serving uploaded files: only to keys that may open the flock, never sniffed or run.
 */
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";

async function upload(t: TestApp, filename: string, contentType: string, content = "data"): Promise<string> {
  const id = await seed(t, "alpha", "journal", { title: "with files" });
  const result = await t.engine.attachFiles("alpha", "journal", id, [
    { field: "files", filename, contentType, bytes: new TextEncoder().encode(content) },
  ]);
  return result.updates.files![0]!;
}

describe("GET /files/v1/{flock}/{fileId}/{filename}", () => {
  it.each([
    ["a PNG, shown inline", "photo.png", "image/png", "image/png", "inline"],
    ["HTML, downloaded (never rendered)", "page.html", "text/html", "text/html", "attachment"],
    ["SVG, downloaded (it can carry script)", "logo.svg", "image/svg+xml", "image/svg+xml", "attachment"],
    ["a PDF, downloaded", "cv.pdf", "application/pdf", "application/pdf", "attachment"],
    ["a bogus content type, served as octets", "x.bin", "not a type<script>", "application/octet-stream", "attachment"],
  ])("serves %s with nosniff", async (_name, filename, declared, served, disposition) => {
    const t = await createTestApp();
    const url = await upload(t, filename, declared, "<script>alert(1)</script>");
    for (const path of [url, `${url}/`]) {
      const res = await t.call("GET", path, { key: KEYS.alice });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(served);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^${disposition}; filename="${filename.replace(".", "\\.")}"`));
      expect(await res.text()).toBe("<script>alert(1)</script>");
    }
  });

  it("names a unicode or quoted filename safely in Content-Disposition", async () => {
    const t = await createTestApp();
    const url = await upload(t, 'Réunion "finale".txt', "text/plain");
    const res = await t.call("GET", url, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="R_union _finale_.txt"; filename*=UTF-8''${encodeURIComponent('Réunion "finale".txt')}`,
    );
  });

  it.each([
    ["no key", undefined, (u: string) => u, 401],
    ["a key of another flock", KEYS.bob, (u: string) => u, 403],
    ["a self-service key", KEYS.member, (u: string) => u, 403],
    ["the admin key", KEYS.admin, (u: string) => u, 200],
    ["another filename", KEYS.alice, (u: string) => u.replace(/[^/]+$/, "other.txt"), 404],
    ["an unknown file id", KEYS.alice, (u: string) => u.replace(/\/[0-9a-f]{24}\//, "/0123456789abcdef01234567/"), 404],
    ["a malformed file id", KEYS.alice, (u: string) => u.replace(/\/[0-9a-f]{24}\//, "/..%00/"), 404],
    ["a missing filename", KEYS.alice, (u: string) => u.replace(/\/[^/]+$/, ""), 404],
  ])("%s", async (_name, key, edit, status) => {
    const t = await createTestApp();
    const url = await upload(t, "notes.txt", "text/plain");
    const res = await t.call("GET", edit(url), { key });
    expect(res.status).toBe(status);
  });
});
