/**
 * The checked-in types are the ones the server's document gives today: a change to a route
 * or a schema without `npm run generate -w packages/client` fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_TYPES_FILE, apiTypesText } from "../scripts/api-types.js";

describe("src/generated/api.ts", () => {
  it("is up to date with the server's OpenAPI document (run: npm run generate -w packages/client)", async () => {
    const fresh = await apiTypesText();
    expect(fresh).toContain('"/api/v1/{flock}/{type}"');
    expect(readFileSync(API_TYPES_FILE, "utf8") === fresh, "src/generated/api.ts is stale: run npm run generate -w packages/client").toBe(true);
  });
});
