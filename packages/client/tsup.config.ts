import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  // Browsers and Node 20+: nothing Node-only is imported.
  target: "es2022",
  platform: "neutral",
});
