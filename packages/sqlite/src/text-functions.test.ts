/**
 * The SQL functions registered on SQLite connections, and the prefix bound of the shared
 * compiler checked against SQLite's own text order.
 */
import { prefixUpperBound } from "@records-service/sql";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CMP16, LOWER, registerTextFunctions } from "./text-functions.js";

describe("prefixUpperBound in SQLite", () => {
  it("bounds exactly the strings with the prefix, in SQLite's order", () => {
    const db = new Database(":memory:");
    const words = ["a", "ab", "a\uFFFF", "a𝒜", "a\u{10FFFF}", "a\u{10FFFF}z", "b", "\uE000", "𝒜", "\u{10FFFF}", "\u{10FFFF}a"];
    db.exec("CREATE TABLE w (t TEXT)");
    const ins = db.prepare("INSERT INTO w VALUES (?)");
    for (const w of words) ins.run(w);
    for (const p of ["a", "a\u{10FFFF}", "\u{10FFFF}", "a\uFFFF", "𝒜"]) {
      const upper = prefixUpperBound(p);
      const rows = (
        upper === undefined
          ? db.prepare("SELECT t FROM w WHERE t >= ? ORDER BY rowid").all(p)
          : db.prepare("SELECT t FROM w WHERE t >= ? AND t < ? ORDER BY rowid").all(p, upper)
      ) as { t: string }[];
      expect(rows.map((r) => r.t)).toEqual(words.filter((w) => w.startsWith(p)));
    }
    db.close();
  });
});

describe("SQL functions", () => {
  it.each([
    { a: "a", b: "b", expected: -1 },
    { a: "b", b: "a", expected: 1 },
    { a: "x", b: "x", expected: 0 },
    { a: "\uE000", b: "𝒜", expected: 1 }, // UTF-16 order; SQLite's BINARY order says -1
    { a: "𝒜", b: "\uFFFF", expected: -1 },
  ])(`${CMP16}($a, $b) = $expected`, ({ a, b, expected }) => {
    const db = new Database(":memory:");
    registerTextFunctions(db);
    expect(db.prepare(`SELECT ${CMP16}(?, ?) AS c`).get(a, b)).toEqual({ c: expected });
    db.close();
  });

  it(`${LOWER} lower-cases beyond ASCII, like toLowerCase`, () => {
    const db = new Database(":memory:");
    registerTextFunctions(db);
    expect(db.prepare(`SELECT ${LOWER}(?) AS l, lower(?) AS ascii`).get("ÄİΣ", "ÄİΣ")).toEqual({
      l: "ÄİΣ".toLowerCase(),
      ascii: "ÄİΣ",
    });
    expect(db.prepare(`SELECT ${LOWER}(NULL) AS l`).get()).toEqual({ l: null });
    db.close();
  });
});
