/**
 * @module vite.config
 * The console is built into `dist/` with hashed asset names under `/console/assets/`, so
 * the server can let browsers keep them for ever and revalidate only `index.html`.
 */
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/console/",
  plugins: [preact()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
});
