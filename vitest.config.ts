import { defineConfig } from "vitest/config";
import { projects } from "./vitest.workspace.js";

export default defineConfig({
  // Resolve workspace packages to their TypeScript sources, so tests need no build.
  ssr: { resolve: { conditions: ["source"] } },
  resolve: { conditions: ["source"] },
  test: {
    projects,
    // e2e tests spawn the real CLI; keep their output readable and their time bounded.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
