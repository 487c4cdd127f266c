/** Writes src/generated/api.ts from the server's OpenAPI document. */
import { writeFileSync } from "node:fs";
import { API_TYPES_FILE, apiTypesText } from "./api-types.js";

writeFileSync(API_TYPES_FILE, await apiTypesText());
console.log(`wrote ${API_TYPES_FILE.pathname}`);
