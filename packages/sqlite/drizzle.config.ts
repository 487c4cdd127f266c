/**
 * @module drizzle.config
 * drizzle-kit settings: `npm run generate -w @records-service/sqlite` writes the SQL
 * migrations for `src/schema.ts` into `drizzle/`, offline (no database needed).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/schema.ts",
  out: "./drizzle",
});
