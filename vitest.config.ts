import { defineConfig } from "vitest/config";
import { projects } from "./vitest.workspace.js";

export default defineConfig({
  // Resolve workspace packages to their TypeScript sources, so tests need no build.
  ssr: { resolve: { conditions: ["source"] } },
  resolve: { conditions: ["source"] },
  test: {
    projects,
    // e2e tests spawn the real CLI, which takes 1-2 s on a quiet machine and up to 20 s on a
    // loaded one (measured at load 20 on 2 cores): the bounds catch a hang, not slowness.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
