/**
 * @module drizzle.config
 * drizzle-kit settings: `npm run generate -w @records-service/postgres` writes the SQL
 * migrations for `src/schema.ts` into `drizzle/`, offline (no database needed).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema.ts",
  out: "./drizzle",
});
