import { describe, expect, it } from "vitest";
import { MAX_DISPLAY_VALUE_LENGTH } from "../query/limits.js";
import { fileUrl } from "./files.js";
import { rejection, setup } from "./test-helpers.js";
import type { FileUpload } from "./types.js";

const upload = (field: string, filename = "a.txt", bytes = new Uint8Array([1, 2, 3])): FileUpload => ({
  field,
  filename,
  contentType: "text/plain",
  bytes,
});

describe("attachFiles", () => {
  it("sets a person's photo to the file URL, storing file and record together", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    const res = await engine.attachFiles("demo", "person", p.id, [upload("photo", "me 1.png")]);
    const url = `/files/v1/demo/${res.files[0]!.id}/me%201.png`;
    expect(res.errors).toEqual({});
    expect(res.updates).toEqual({ photo: [url] });
    expect(res.record).toMatchObject({ version: 2, data: { photo: url } });
    expect(await storage.getRecord("demo", "person", p.id)).toEqual(res.record);
    const stored = await storage.getFile("demo", res.files[0]!.id);
    expect(stored).toMatchObject({ flock: "demo", recordType: "person", recordId: p.id, field: "photo", filename: "me 1.png" });
    expect(Array.from(stored!.bytes)).toEqual([1, 2, 3]);
  });

  it("reports other person fields in errors, storing the rest", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    const res = await engine.attachFiles("demo", "person", p.id, [upload("notes"), upload("photo")]);
    expect(Object.keys(res.errors)).toEqual(["notes"]);
    expect(res.errors.notes).toContain("photo");
    expect(Object.keys(res.updates)).toEqual(["photo"]);
    expect(res.files).toHaveLength(1);
    expect((await storage.getRecord("demo", "person", p.id))?.data.notes).toBeNull();
  });

  it("writes nothing when every file is refused", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    const res = await engine.attachFiles("demo", "person", p.id, [upload("notes")]);
    expect(res).toMatchObject({ updates: {}, files: [], record: p });
    expect(await storage.getRecord("demo", "person", p.id)).toEqual(p);
  });

  it("keeps only the last of several person photos", async () => {
    const { engine } = await setup();
    const p = await engine.create("demo", "person", {});
    const res = await engine.attachFiles("demo", "person", p.id, [upload("photo", "one.png"), upload("photo", "two.png")]);
    expect(res.files.map((f) => f.filename)).toEqual(["two.png"]);
    expect(res.record.data.photo).toMatch(/two\.png$/);
  });

  it("appends URLs to an open-type field's list (a scalar becomes a list)", async () => {
    const { engine } = await setup();
    const j = await engine.create("demo", "journal", { files: "/files/v1/demo/old/x.pdf", other: null });
    const res = await engine.attachFiles("demo", "journal", j.id, [upload("files", "a.pdf"), upload("files", "b.pdf"), upload("other", "c.pdf")]);
    const [a, b, c] = res.files.map((f) => fileUrl("demo", f.id, f.filename));
    expect(res.updates).toEqual({ files: [a, b], other: [c] });
    expect(res.record.data).toEqual({ files: ["/files/v1/demo/old/x.pdf", a, b], other: [c] });
  });

  it("refuses malformed field names on open types as JSON does, storing nothing", async () => {
    const { engine, storage } = await setup();
    const j = await engine.create("demo", "journal", {});
    const err = await rejection(engine.attachFiles("demo", "journal", j.id, [upload("bad-name"), upload("ok")]));
    expect(err).toMatchObject({ code: "bad_request", message: "invalid field name" });
    expect(err.detail).toContain('"bad-name"');
    expect(await storage.getRecord("demo", "journal", j.id)).toEqual(j);
  });

  it("defaults an empty file name and content type", async () => {
    const { engine } = await setup();
    const j = await engine.create("demo", "journal", {});
    const res = await engine.attachFiles("demo", "journal", j.id, [{ field: "files", filename: " ", contentType: "", bytes: new Uint8Array() }]);
    expect(res.files[0]).toMatchObject({ filename: "file", contentType: "application/octet-stream" });
  });

  it("refuses an upload without files", async () => {
    const { engine } = await setup();
    const j = await engine.create("demo", "journal", {});
    expect(await rejection(engine.attachFiles("demo", "journal", j.id, []))).toMatchObject({ code: "bad_request" });
  });

  it("encodes the file name in the URL", () => {
    expect(fileUrl("demo", "f".repeat(24), "a/b ?.pdf")).toBe(`/files/v1/demo/${"f".repeat(24)}/a%2Fb%20%3F.pdf`);
  });
});

describe("toSingle", () => {
  it("expands same-flock references in fields and list entries with one getDisplayValues call", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    const o = await engine.create("demo", "organisation", { name: "Analytical Society" });
    const foreign = await engine.create("other", "person", { first_name: "Bob" });
    const pUri = `/demo/person/${p.id}/`;
    const oUri = `/demo/organisation/${o.id}/`;
    const j = await engine.create("demo", "journal", {
      contact_ref: pUri,
      org: { display_value: "old name", ref: oUri },
      people: [pUri],
      foreign: `/other/person/${foreign.id}/`,
      missing: `/demo/person/${"f".repeat(24)}/`,
    });
    let calls = 0;
    const getRecords = storage.getRecords.bind(storage);
    storage.getRecords = async (...args) => {
      calls += 1;
      return getRecords(...args);
    };
    const getDisplayValues = storage.getDisplayValues.bind(storage);
    storage.getDisplayValues = async (...args) => {
      calls += 10;
      return getDisplayValues(...args);
    };
    const env = await engine.toSingle(j);
    expect(calls).toBe(10); // one getDisplayValues call, no getRecords
    expect(env.data).toEqual({
      contact_ref: { display_value: "Ada Lovelace", ref: pUri },
      org: { display_value: "Analytical Society", ref: oUri },
      people: [{ display_value: "Ada Lovelace", ref: pUri }],
      foreign: `/other/person/${foreign.id}/`,
      missing: `/demo/person/${"f".repeat(24)}/`,
    });
    expect(env).toMatchObject({ bucket: "demo", resource: "journal", uri: `/demo/journal/${j.id}/` });
  });

  it("cuts an expanded display value stored before MAX_DISPLAY_VALUE_LENGTH to it", async () => {
    const { engine, storage } = await setup();
    const org = await engine.create("demo", "organisation", { name: "Short" });
    await storage.apply({ records: [{ kind: "update", record: { ...org, displayValue: "L".repeat(5000), version: 2 }, expectedVersion: 1, changed: [] }] });
    const j = await engine.create("demo", "journal", { org: `/demo/organisation/${org.id}/` });
    const env = (await engine.toSingle(j)) as { data: { org: { display_value: string } } };
    expect(env.data.org.display_value).toBe(`${"L".repeat(MAX_DISPLAY_VALUE_LENGTH - 1)}…`);
  });

  it("makes no storage call for a record without references, and shows [null] lists", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    storage.getRecords = async () => {
      throw new Error("not expected");
    };
    storage.getDisplayValues = async () => {
      throw new Error("not expected");
    };
    const env = await engine.toSingle(p);
    expect(env.data).toMatchObject({ first_name: "Ada", email: [null], tags: [null] });
    expect(env.meta).toEqual({ created: p.created, last_updated: p.lastUpdated, state: "updated" });
  });
});
