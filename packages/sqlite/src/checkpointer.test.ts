import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKPOINT_INTERVAL_MS, startCheckpointer } from "./checkpointer.js";
import { openDatabase } from "./open.js";

const dir = mkdtempSync(join(tmpdir(), "records-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL file database holding a table of blobs; `write(mb)` commits that many MiB. */
function database(name: string) {
  const path = join(dir, name, "records.db");
  const db = openDatabase({ path });
  db.$client.exec("CREATE TABLE blobs (b BLOB)");
  const insert = db.$client.prepare("INSERT INTO blobs (b) VALUES (?)");
  return { path, db, write: (mb: number) => insert.run(Buffer.alloc(mb * 1024 * 1024, 1)), size: () => statSync(path).size };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, CHECKPOINT_INTERVAL_MS * 4));

describe("the checkpointer", () => {
  it("copies committed frames into the database file off the writing thread", async () => {
    const { path, db, write, size } = database("on");
    const checkpointer = startCheckpointer(path);
    const before = size();
    write(4); // far below wal_autocheckpoint: left to SQLite, the file would not grow
    await settle();
    expect(size()).toBeGreaterThan(before + 4 * 1024 * 1024);
    await checkpointer.stop();
    await checkpointer.stop(); // twice is fine
    db.$client.close();
  });

  it("without it, the same commit stays in the log (the commit-time fallback waits for ~200 MB)", async () => {
    const { db, write, size } = database("off");
    const before = size();
    write(4);
    await settle();
    expect(size()).toBe(before);
    db.$client.close();
  });

  it("stops at once when its worker has already failed (a missing file)", async () => {
    const checkpointer = startCheckpointer(join(dir, "missing", "records.db"));
    await expect(checkpointer.stop()).resolves.toBeUndefined();
  });
});
