/**
 * The defaults README.md's config table documents are the schema's: for each row naming
 * settings keys (`section.key`, then further keys of that section), the default column
 * gives, in order, each key's default (a `code` value, or "none" for a key without one),
 * and they must equal `CONFIG_DEFAULTS`. A default changed in one place and not the other
 * fails here.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS } from "./schema.js";

const README = readFileSync(fileURLToPath(new URL("../../../../README.md", import.meta.url)), "utf8");

/** `[key path, documented default]` of every settings row of the config table. */
function documentedDefaults(): [string, unknown][] {
  const rows = README.split("\n").filter((l) => l.startsWith("| `") && l.split(" | ").length === 3);
  const out: [string, unknown][] = [];
  for (const row of rows) {
    const [keys, , defaults] = row.slice(2, -2).split(" | ") as [string, string, string];
    const names = [...keys.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    // A settings row names `section.key` first (or the top-level `clock`); list rows (`flocks[]`) have no defaults here.
    const section = names[0]!.includes(".") ? names[0]!.split(".")[0]! : names[0] === "clock" ? "" : undefined;
    if (section === undefined || names.some((n) => n.includes("["))) continue;
    const values = defaults.split(/, (?=`|none)/).map((part) => {
      const code = /^`([^`]*)`/.exec(part.trim());
      return code ? _value(code[1]!) : undefined;
    });
    names.forEach((name, i) => out.push([section && !name.includes(".") ? `${section}.${name}` : name, values[i]]));
  }
  return out;
}

describe("README.md's config table", () => {
  const documented = documentedDefaults();

  it("documents the settings sections (a table that stopped parsing would pass trivially)", () => {
    const keys = documented.map(([k]) => k);
    expect(keys).toEqual(expect.arrayContaining(["throttle.unattributedPerMinute", "auth.keyTtlHours", "changes.maxBufferBytes", "backup.keep", "clock"]));
    expect(keys.length).toBeGreaterThan(20);
  });

  it.each(documentedDefaults())("%s: the documented default is config/schema's", (key, value) => {
    expect(_at(CONFIG_DEFAULTS, key)).toEqual(value);
  });
});

// --- internal ---

/** A documented value: JSON where it parses (numbers, booleans), else the text (cron patterns). */
function _value(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function _at(root: object, path: string): unknown {
  return path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], root);
}
