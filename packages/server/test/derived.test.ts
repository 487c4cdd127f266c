/**
 * The spec's derived reads table: display (v1 and v2), avatar (uploaded photo, else initials;
 * Bearer key), and the signed member card (signature first, then the member).
 */
import { createMemoryStorage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createHmac } from "node:crypto";
import { cardKey, webhookKey } from "../src/config/keys.js";
import { cardSignature, cardUrl } from "../src/derived/card-signature.js";
import { memberCardUrl } from "../src/derived/card-url.js";
import { decodePng } from "../src/derived/png-test-helpers.js";
import { KEYS } from "./helpers/app.js";
import { createV2TestApp, SECRET, seedPeople } from "./helpers/v2-app.js";

const PNG_BYTES = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);

describe("GET /api/v{1,2}/{flock}/{type}/{id}/display", () => {
  it.each(["/api/v1", "/api/v2"])("%s answers {display_value}", async (prefix) => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const empty = (await t.engine.create("alpha", "person", {})).id;
    expect(await (await t.call("GET", `${prefix}/alpha/person/${ada}/display`, { key: KEYS.alice })).json()).toEqual({ display_value: "Ada Lovelace" });
    expect(await (await t.call("GET", `${prefix}/alpha/person/${empty}/display/`, { key: KEYS.alice })).json()).toEqual({ display_value: "an empty person" });
  });

  it.each([
    { name: "no key", key: undefined, status: 401 },
    { name: "another tenant's key", key: KEYS.bob, status: 403 },
    { name: "a self-service token", key: KEYS.member, status: 403 },
  ])("v2 display answers $status for $name", async ({ key, status }) => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/person/${ada}/display`, { key });
    expect(res.status).toBe(status);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
  });

  it("v2 display of an unknown record is a v2 404", async () => {
    const t = await createV2TestApp();
    const res = await t.call("GET", "/api/v2/alpha/person/0123456789abcdef01234567/display", { key: KEYS.alice });
    expect(res.status).toBe(404);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
  });
});

describe("GET /api/v2/{flock}/{type}/{id}/avatar", () => {
  it("draws the initials as a PNG by default, 128 pixels square, not blank", async () => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/person/${ada}/avatar`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const png = decodePng(new Uint8Array(await res.arrayBuffer()));
    expect([png.width, png.height]).toEqual([128, 128]);
    expect(new Set(png.pixels).size).toBeGreaterThan(2); // background, white ink, anti-aliased edges
  });

  it.each([
    { query: "?size=64", width: 64 },
    { query: "?format=png&size=16", width: 16 },
    { query: "?size=512", width: 512 },
  ])("honours $query", async ({ query, width }) => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/person/${ada}/avatar/${query}`, { key: KEYS.alice });
    expect(decodePng(new Uint8Array(await res.arrayBuffer())).width).toBe(width);
  });

  it("draws SVG with ?format=svg, showing the initials", async () => {
    const t = await createV2TestApp();
    const { grace } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/person/${grace}/avatar?format=svg`, { key: KEYS.alice });
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await res.text();
    expect(svg).toMatch(/^<svg [^>]*width="128" height="128"/);
    expect(svg).toContain(">GH</text>");
  });

  it("uses the display value of a record that is not a person", async () => {
    const t = await createV2TestApp();
    const org = (await t.engine.create("alpha", "organisation", { name: "Royal Society" })).id;
    const res = await t.call("GET", `/api/v2/alpha/organisation/${org}/avatar?format=svg`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(">RS</text>");
  });

  it("redirects (302) to the person's uploaded photo (multipart `photo` part), served as uploaded", async () => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const form = new FormData();
    form.set("photo", new File([PNG_BYTES], "ada.png", { type: "image/png" }));
    expect((await t.call("PUT", `/api/v1/alpha/person/${ada}/`, { key: KEYS.alice, body: form })).status).toBe(200);
    for (const query of ["", "?format=svg&size=32"]) {
      const res = await t.call("GET", `/api/v2/alpha/person/${ada}/avatar${query}`, { key: KEYS.alice });
      expect(res.status).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).toMatch(/^\/files\/v1\/alpha\/[0-9a-f]{24}\/ada\.png$/);
      const image = await t.call("GET", location, { key: KEYS.alice });
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG_BYTES);
    }
  });

  it("does not serve an uploaded SVG photo (it could carry script): the initials instead", async () => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    await t.engine.attachFiles("alpha", "person", ada, [
      { field: "photo", filename: "x.svg", contentType: "image/svg+xml", bytes: new TextEncoder().encode("<svg><script>alert(1)</script></svg>") },
    ]);
    const res = await t.call("GET", `/api/v2/alpha/person/${ada}/avatar`, { key: KEYS.alice });
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(decodePng(new Uint8Array(await res.arrayBuffer())).width).toBe(128);
  });

  it.each([
    { name: "no key", key: KEYS.alice, drop: true, query: "", status: 401 },
    { name: "another tenant's key", key: KEYS.bob, query: "", status: 403 },
    { name: "a bad format", key: KEYS.alice, query: "?format=gif", status: 400 },
    { name: "a size too large", key: KEYS.alice, query: "?size=513", status: 400 },
    { name: "a size that is not a number", key: KEYS.alice, query: "?size=big", status: 400 },
  ])("answers $status for $name", async ({ key, drop, query, status }) => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/person/${ada}/avatar${query}`, drop ? {} : { key });
    expect(res.status).toBe(status);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
  });

  it("answers 404 for an unknown record", async () => {
    const t = await createV2TestApp();
    const res = await t.call("GET", "/api/v2/alpha/person/0123456789abcdef01234567/avatar", { key: KEYS.alice });
    expect(res.status).toBe(404);
  });
});

describe("GET /api/v2/{flock}/member/{id}/card/?signature=", () => {
  const sign = (id: string, flock = "alpha") => cardSignature(cardKey(SECRET), flock, id);

  it("shows the member's card without a Bearer key: name, membership, dates, flock name", async () => {
    const t = await createV2TestApp();
    const { adaMember } = await seedPeople(t);
    for (const path of [`/api/v2/alpha/member/${adaMember}/card/`, `/api/v2/alpha/member/${adaMember}/card`]) {
      const res = await t.call("GET", `${path}?signature=${sign(adaMember)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      const html = await res.text();
      for (const text of ["Ada Lovelace", "M-0001", "Annual", "1 January 2026", "31 December 2026", "Alpha Society", "active"]) {
        expect(html).toContain(text);
      }
      expect(html).not.toContain("Grace");
    }
  });

  it("accepts the signature in upper case (same bytes)", async () => {
    const t = await createV2TestApp();
    const { adaMember } = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/member/${adaMember}/card/?signature=${sign(adaMember).toUpperCase()}`);
    expect(res.status).toBe(200);
  });

  it("answers 401 `signature missing` with the spec's body when there is none", async () => {
    const t = await createV2TestApp();
    const { adaMember } = await seedPeople(t);
    for (const query of ["", "?signature="]) {
      const res = await t.call("GET", `/api/v2/alpha/member/${adaMember}/card/${query}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        title: "signature missing",
        description: "a signature parameter is required",
        error: "signature missing",
        type: "unauthorized",
        link: { href: "/docs/v2#signed-member-cards", rel: "help", text: expect.any(String) },
      });
    }
  });

  it.each([
    { name: "a wrong signature", signature: () => "0".repeat(64) },
    { name: "another member's signature", signature: (ids: { graceMember: string }) => sign(ids.graceMember) },
    { name: "the signature of the same id in another flock", signature: (ids: { adaMember: string }) => sign(ids.adaMember, "beta") },
    { name: "a signature keyed with another secret", signature: (ids: { adaMember: string }) => cardSignature(cardKey("another-secret-000000"), "alpha", ids.adaMember) },
    // Issue 15: a flock's webhook receiver holds its webhook key; it must not make card links.
    { name: "a signature keyed with the flock's webhook key", signature: (ids: { adaMember: string }) => cardSignature(webhookKey(SECRET, "alpha"), "alpha", ids.adaMember) },
    // The old scheme (keyed with the secret itself) no longer opens cards.
    { name: "a signature keyed with the secret itself", signature: (ids: { adaMember: string }) => createHmac("sha256", SECRET).update(`alpha/member/${ids.adaMember}`).digest("hex") },
    { name: "a truncated signature", signature: (ids: { adaMember: string }) => sign(ids.adaMember).slice(0, 63) },
    { name: "a signature that is not hex", signature: () => "z".repeat(64) },
  ])("answers 401 `signature invalid` for $name", async ({ signature }) => {
    const t = await createV2TestApp();
    const ids = await seedPeople(t);
    const res = await t.call("GET", `/api/v2/alpha/member/${ids.adaMember}/card/?signature=${signature(ids)}`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ title: "signature invalid", error: "signature invalid", type: "unauthorized", link: { href: "/docs/v2#signed-member-cards", rel: "help" } });
    expect(typeof body.description).toBe("string");
  });

  it("checks the signature before the member, so unknown ids cannot be probed", async () => {
    const t = await createV2TestApp();
    await seedPeople(t);
    const unknown = "0123456789abcdef01234567";
    const unsigned = await t.call("GET", `/api/v2/alpha/member/${unknown}/card/?signature=${"0".repeat(64)}`);
    expect(unsigned.status).toBe(401);
    const signed = await t.call("GET", `/api/v2/alpha/member/${unknown}/card/?signature=${sign(unknown)}`);
    expect(signed.status).toBe(404);
    expect(Object.keys((await signed.json()) as object).sort()).toEqual(["description", "error", "title", "type"]);
    const noFlock = await t.call("GET", `/api/v2/ghost/member/${unknown}/card/?signature=${sign(unknown, "ghost")}`);
    expect(noFlock.status).toBe(404);
  });

  it("answers 404 for a deleted member, and names an unknown member when the person reference is broken", async () => {
    const t = await createV2TestApp();
    const { adaMember } = await seedPeople(t);
    const orphan = (await t.engine.create("alpha", "member", { member: "/alpha/person/0123456789abcdef01234567/", membership_number: "M-9" })).id;
    const res = await t.call("GET", `/api/v2/alpha/member/${orphan}/card/?signature=${sign(orphan)}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Unknown member");
    await t.engine.delete("alpha", "member", adaMember);
    expect((await t.call("GET", `/api/v2/alpha/member/${adaMember}/card/?signature=${sign(adaMember)}`)).status).toBe(404);
  });

  it("is not served for other types (only `member` has signed cards)", async () => {
    const t = await createV2TestApp();
    const m = (await t.engine.create("alpha", "membership", { membership_number: "1" })).id;
    const res = await t.call("GET", `/api/v2/alpha/membership/${m}/card/?signature=${sign(m)}`);
    expect(res.status).toBe(404);
  });

  it("without a configured secret, uses the database's stored secret, as memberCardUrl does", async () => {
    const t = await createV2TestApp();
    const { adaMember } = await seedPeople(t);
    const app = createApp({ engine: t.engine });
    const url = new URL(await memberCardUrl(t.storage, { flock: "alpha", memberId: adaMember, baseUrl: "http://records.test" }));
    expect(url.origin).toBe("http://records.test");
    const res = await app.request(`${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Ada Lovelace");
    // A link signed with the other secret does not open it.
    expect((await app.request(new URL(cardUrl("http://x", SECRET, "alpha", adaMember)).pathname + `?signature=${sign(adaMember)}`)).status).toBe(401);
  });

  it("memberCardUrl refuses an unknown flock or member", async () => {
    const BASE = "https://records.example.org";
    const storage = createMemoryStorage();
    await expect(memberCardUrl(storage, { flock: "alpha", memberId: "0123456789abcdef01234567", baseUrl: BASE })).rejects.toThrow("unknown flock");
    const t = await createV2TestApp();
    await expect(memberCardUrl(t.storage, { flock: "alpha", memberId: "0123456789abcdef01234567", baseUrl: BASE })).rejects.toThrow("unknown member");
    await expect(memberCardUrl(t.storage, { flock: "alpha", memberId: "../x", baseUrl: BASE })).rejects.toThrow("unknown member");
  });
});
