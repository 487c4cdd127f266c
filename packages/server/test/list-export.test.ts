/**
 * `GET /api/v1/{flock}/{type}/export?format=csv|xlsx&<list filters>` on every adapter: the
 * list's filters applied to every page, the chosen columns in order, cells as `import`
 * reads them (read back with csv-parse and exceljs), and every bad request refused before
 * a byte of file is sent: a bad format, bad columns, a bad filter, another flock's key.
 */
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { KEYS, seed, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";

describe.each(EVERY_ADAPTER)("list export on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  async function people(t: TestApp): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(await seed(t, "alpha", "person", { first_name: `P${i}`, last_name: i % 3 === 0 ? "Lovelace" : "Turing", email: [`p${i}@example.org`], tags: i === 0 ? ["vip", "a;b"] : ["vip", "donor"], email_opt_out: i % 2 === 0 }));
    }
    return ids;
  }

  run("CSV: the filters over every page, chosen columns, import's cell conventions", async () => {
    const t = await setup();
    const ids = await people(t);
    const res = await t.call("GET", "/api/v1/alpha/person/export?format=csv&last_name=Lovelace&page_size=2&page=3&columns=id,first_name,tags,email_opt_out", { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="alpha-person.csv"');
    const rows = parse(await res.text()) as string[][];
    expect(rows[0]).toEqual(["id", "first_name", "tags", "email_opt_out"]);
    const want = ids.filter((_, i) => i % 3 === 0);
    expect(rows.slice(1).map((r) => r[0])).toEqual(want);
    expect(rows[1]).toEqual([ids[0], "P0", '["vip","a;b"]', "true"]);
    expect(rows[2]).toEqual([ids[3], "P3", "vip;donor", "false"]);
  });

  run("CSV with the list's sort: every match in that order", async () => {
    const t = await setup();
    const ids = await people(t);
    const res = await t.call("GET", "/api/v1/alpha/person/export?format=csv&last_name=Turing&sort=-first_name&columns=id,first_name", { key: KEYS.alice });
    expect(res.status).toBe(200);
    const rows = (parse(await res.text()) as string[][]).slice(1);
    const want = ids.map((id, i) => ({ id, name: `P${i}` })).filter((_, i) => i % 3 !== 0);
    want.sort((a, b) => (a.name < b.name ? 1 : -1));
    expect(rows.map((r) => r[1])).toEqual(want.map((w) => w.name));
    expect(rows.map((r) => r[0])).toEqual(want.map((w) => w.id));
    // A bad sort is the list's 400, before any byte of file.
    const bad = await t.call("GET", "/api/v1/alpha/person/export?format=csv&sort=no_such_field", { key: KEYS.alice });
    expect(bad.status).toBe(400);
  });

  run("CSV without columns: the envelope, then every person field", async () => {
    const t = await setup();
    await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const text = await (await t.call("GET", "/api/v1/alpha/person/export?format=csv", { key: KEYS.alice })).text();
    const [header, row] = parse(text) as string[][];
    expect(header!.slice(0, 7)).toEqual(["type", "id", "state", "created", "last_updated", "version", expect.any(String)]);
    expect(header).toContain("formatted_name");
    expect(row![header!.indexOf("formatted_name")]).toBe("Ada Lovelace");
    expect(row![0]).toBe("person");
  });

  run("another type: its records' keys as columns; include_deleted", async () => {
    const t = await setup();
    await seed(t, "alpha", "journal", { subject: "a", count: 2 });
    const gone = await seed(t, "alpha", "journal", { subject: "b", extra: { x: 1 } });
    expect((await t.call("DELETE", `/api/v1/alpha/journal/${gone}/`, { key: KEYS.alice })).status).toBe(200);
    const live = parse(await (await t.call("GET", "/api/v1/alpha/journal/export?format=csv", { key: KEYS.alice })).text()) as string[][];
    expect(live.length).toBe(2);
    expect(live[0]!.slice(6)).toEqual(["subject", "count"]);
    const all = parse(await (await t.call("GET", "/api/v1/alpha/journal/export?format=csv&include_deleted=Y", { key: KEYS.alice })).text()) as string[][];
    expect(all[0]!.slice(6)).toEqual(["subject", "count", "extra"]);
    expect(all[2]!.slice(2, 3).concat(all[2]!.slice(6))).toEqual(["deleted", "b", "", '{"x":1}']);
  });

  run("XLSX: the same rows, read back with exceljs, numbers and booleans as cells", async () => {
    const t = await setup();
    const ids = await people(t);
    const res = await t.call("GET", "/api/v1/alpha/person/export?format=xlsx&last_name=Lovelace&columns=id,first_name,email,email_opt_out", { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe("person");
    const values = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(values[0]).toEqual(["id", "first_name", "email", "email_opt_out"]);
    expect(values.length).toBe(11);
    expect(values[1]).toEqual([ids[0], "P0", "p0@example.org", true]);
    expect(values[2]![3]).toBe(false);
  });

  run("bad requests: 400 in the error shape, nothing streamed", async () => {
    const t = await setup();
    await seed(t, "alpha", "person", { first_name: "Ada" });
    const cases: [string, RegExp][] = [
      ["", /format/],
      ["format=pdf", /format must be csv or xlsx/],
      ["format=csv&columns=id,,first_name", /columns/],
      ["format=csv&columns=id,id", /twice/],
      ["format=csv&columns=id,not_a_field", /not a person field/],
      ["format=csv&no_such_field=1", /./],
      ["format=csv&tags__andlist=vip", /v2|andlist/],
    ];
    for (const [q, detail] of cases) {
      const res = await t.call("GET", `/api/v1/alpha/person/export?${q}`, { key: KEYS.alice });
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as { error: string; error_detail: string };
      expect(body.error, q).toEqual(expect.any(String));
      expect(`${body.error} ${body.error_detail}`, q).toMatch(detail);
    }
  });

  run("another flock's key is refused; unknown flock and type are 404; no key 401", async () => {
    const t = await setup();
    await seed(t, "alpha", "person", { first_name: "Ada" });
    expect((await t.call("GET", "/api/v1/alpha/person/export?format=csv", { key: KEYS.bob })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/alpha/person/export?format=csv")).status).toBe(401);
    expect((await t.call("GET", "/api/v1/alpha/person/export?format=csv", { key: KEYS.member })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/ghost/person/export?format=csv", { key: KEYS.carol })).status).toBe(404);
    const badType = await t.call("GET", "/api/v1/alpha/No-Such!/export?format=csv", { key: KEYS.alice });
    expect([400, 404]).toContain(badType.status);
  });
});
