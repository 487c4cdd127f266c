/**
 * Issue 23, point 5: each package exports what its README documents and nothing else. The
 * README's "Public API" section is generated from the package's entry points (TypeScript's
 * own export list, test/helpers/public-api.ts); this test fails when an export is added,
 * removed or moved without the README changing. `UPDATE_API_READMES=1` rewrites the sections.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_END, API_START, apiSection, readmeSection } from "./helpers/public-api.js";

const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));
const LIBRARIES = ["core", "sql", "sqlite", "postgres", "server", "client"];

describe("each package's README documents exactly what it exports", () => {
  for (const name of LIBRARIES) {
    it(`@records-service/${name}`, () => {
      const dir = `${PACKAGES}${name}`;
      const file = `${dir}/README.md`;
      const readme = readFileSync(file, "utf8");
      const want = apiSection(dir);
      if (process.env.UPDATE_API_READMES) {
        const have = readmeSection(readme);
        writeFileSync(file, have === undefined ? `${readme.trimEnd()}\n\n${want}\n` : readme.replace(have, want));
        return;
      }
      expect(readmeSection(readme), `${file} has no section between ${API_START} and ${API_END}`).toBeDefined();
      expect(readmeSection(readme), `${file}: the exports changed; run UPDATE_API_READMES=1 npx vitest run public-api and say why in the README`).toBe(want);
    }, 120_000);
  }
});
