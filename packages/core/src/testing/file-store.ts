/**
 * @module testing/file-store
 * Conformance of `FileStore` and of the files a change set writes and removes: bytes read
 * back equal, files belong to their flock, ids are unique, `removeFilesOf` commits or
 * rolls back with its change set.
 */
import { expect } from "vitest";
import { F1, F2, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { StoredFile } from "../model/file.js";

/** Declares the `FileStore` tests. */
export function describeFileStore(h: Harness): void {
  h.group("files", () => {
    const bytes = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
    const file = (id: string, over: Partial<StoredFile> = {}): StoredFile => ({
      id,
      flock: F1,
      recordType: "journal",
      recordId: testId(1),
      field: "files",
      filename: "report 2026 ☃.pdf",
      contentType: "application/pdf",
      bytes,
      created: stamp(3),
      ...over,
    });

    h.it("a stored file reads back with equal bytes", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: rec(1, {}, { type: "journal" }) }], files: [file("f0000000000000000000000a")] });
      const got = await s.getFile(F1, "f0000000000000000000000a");
      expect(got).toBeDefined();
      expect(got!.bytes).toBeInstanceOf(Uint8Array);
      expect(Array.from(got!.bytes)).toEqual(Array.from(bytes));
      expect({ ...got!, bytes: undefined }).toEqual({ ...file("f0000000000000000000000a"), bytes: undefined });
    });

    h.it("an empty file round-trips", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000b", { bytes: new Uint8Array(0) })] });
      expect(Array.from((await s.getFile(F1, "f0000000000000000000000b"))!.bytes)).toEqual([]);
    });

    h.it("getFile needs the right flock", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000c")] });
      expect(await s.getFile(F2, "f0000000000000000000000c")).toBeUndefined();
      expect(await s.getFile(F1, "f0000000000000000000000d")).toBeUndefined();
    });

    h.it("a duplicate file id is a conflict", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ files: [file("f0000000000000000000000e")] });
      await expect(s.apply({ files: [file("f0000000000000000000000e", { filename: "other" })] })).rejects.toMatchObject({
        code: "conflict",
      });
      expect((await s.getFile(F1, "f0000000000000000000000e"))?.filename).toBe("report 2026 ☃.pdf");
    });

    h.it("removeFilesOf deletes the files of that record only, with the record write", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, { files: ["x"] }, { type: "journal" });
      await s.apply({
        records: [{ kind: "insert", record: r }],
        files: [
          file("f00000000000000000000001"),
          file("f00000000000000000000002", { field: "other" }),
          file("f00000000000000000000003", { recordId: testId(2) }),
          file("f00000000000000000000004", { recordType: "person" }),
          file("f00000000000000000000005", { flock: F2 }),
        ],
      });
      await s.apply({
        records: [{ kind: "update", record: { ...r, data: { files: null }, version: 2 }, expectedVersion: 1, changed: ["files"] }],
        removeFilesOf: [{ flock: F1, type: "journal", id: testId(1) }],
      });
      expect(await s.getFile(F1, "f00000000000000000000001")).toBeUndefined();
      expect(await s.getFile(F1, "f00000000000000000000002")).toBeUndefined();
      expect(await s.getFile(F1, "f00000000000000000000003")).toBeDefined();
      expect(await s.getFile(F1, "f00000000000000000000004")).toBeDefined();
      expect(await s.getFile(F2, "f00000000000000000000005")).toBeDefined();
      expect((await s.getRecord(F1, "journal", testId(1)))?.data).toEqual({ files: null });
    });

    h.it("removeFilesOf is rolled back with a failing change set", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const r = rec(1, {}, { type: "journal" });
      await s.apply({ records: [{ kind: "insert", record: r }], files: [file("f00000000000000000000009")] });
      await expect(
        s.apply({
          records: [{ kind: "update", record: { ...r, version: 9 }, expectedVersion: 8, changed: [] }],
          removeFilesOf: [{ flock: F1, type: "journal", id: testId(1) }],
        }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getFile(F1, "f00000000000000000000009")).toBeDefined();
    });
  });
}
