/**
 * The test projects, one per package. vitest 4 no longer reads this file by itself
 * (`defineWorkspace` is gone); `vitest.config.ts` imports the list from here.
 */
export const projects = [
  {
    extends: true as const,
    test: { name: "core", root: "packages/core", include: ["src/**/*.test.ts"] },
  },
  {
    extends: true as const,
    test: { name: "sql", root: "packages/sql", include: ["src/**/*.test.ts"] },
  },
  {
    extends: true as const,
    test: { name: "sqlite", root: "packages/sqlite", include: ["src/**/*.test.ts"] },
  },
  {
    extends: true as const,
    test: {
      name: "postgres",
      root: "packages/postgres",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Checks the test server (RECORDS_TEST_PG_URL) once: skip locally without it, fail in CI.
      globalSetup: ["test/global-setup.ts"],
    },
  },
  {
    extends: true as const,
    test: {
      name: "server",
      root: "packages/server",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      // Its PostgreSQL tests (test/postgres/) need the server check too.
      globalSetup: ["../postgres/test/global-setup.ts"],
    },
  },
  {
    extends: true as const,
    test: {
      name: "server-e2e",
      root: "packages/server",
      include: ["test/e2e/**/*.test.ts"],
      globalSetup: ["../postgres/test/global-setup.ts"],
      // Each test spawns the real CLI, several times in some: one spawn takes 1-2 s on a quiet
      // machine and 15-25 s on a loaded one (seen at load 20 on 2 cores), so these bounds
      // allow a test of several spawns under load; they still end a hang.
      testTimeout: 240_000,
      hookTimeout: 240_000,
    },
  },
  {
    extends: true as const,
    // The console's pure helpers (text, route, feed parsing); its pages are tested in Chromium (server/test/browser).
    test: { name: "console", root: "packages/console", include: ["src/**/*.test.ts"] },
  },
  {
    extends: true as const,
    test: { name: "client", root: "packages/client", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
  },
  {
    extends: true as const,
    test: { name: "examples", root: "examples", include: ["**/*.test.ts"] },
  },
  {
    extends: true as const,
    // The benchmark's own helpers (seeding, reporting); the benchmark itself is `npm run bench`.
    test: { name: "bench", root: "bench", include: ["lib/**/*.test.ts"] },
  },
];
