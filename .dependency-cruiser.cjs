/**
 * The import rules of the workspace, checked by `npm run depcheck` (part of `npm test`).
 * Each rule says why it exists; docs/architecture.md draws the same arrows.
 */
const TEST = "(\\.test\\.tsx?$|/test/|test-helpers\\.ts$)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "No import circles anywhere, type-only imports included: a circle means two modules can only be read, " +
        "tested and moved together. Break it by moving what both need below both.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-stays-core",
      severity: "error",
      comment:
        "core is the engine over Storage: it must not import the server, an adapter, the SQL compiler, the client or " +
        "the console, and nothing Node-specific (time and ids are injected), so it runs anywhere.",
      from: { path: "^packages/core/src/", pathNot: TEST },
      to: {
        path: "^packages/(server|sqlite|postgres|sql|client|console)/|^node_modules/@records-service/(server|sqlite|postgres|sql|client|console)",
      },
    },
    {
      name: "core-no-node",
      severity: "error",
      comment: "core runs on any JavaScript runtime: no Node built-ins outside its tests.",
      from: { path: "^packages/core/src/", pathNot: TEST },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "adapters-not-server",
      severity: "error",
      comment: "Adapters and the SQL compiler execute storage: they never import the server (which depends on them).",
      from: { path: "^packages/(sqlite|postgres|sql)/" },
      to: { path: "^packages/server/|^node_modules/@records-service/server" },
    },
    {
      name: "core-model-is-the-bottom",
      severity: "error",
      comment: "model/ holds the domain types: it imports nothing of core but itself (no I/O, no engine).",
      from: { path: "^packages/core/src/model/" },
      to: { path: "^packages/core/src/", pathNot: "^packages/core/src/model/" },
    },
    {
      name: "core-storage-over-model",
      severity: "error",
      comment:
        "storage/ holds the role interfaces and their helpers: it may import model/ and core's root utilities " +
        "(errors, time, ids), never the engine's folders above it nor the adapter or suites that implement and test it.",
      from: { path: "^packages/core/src/storage/", pathNot: TEST },
      to: {
        path: "^packages/core/src/",
        pathNot: "^packages/core/src/(model|storage)/|^packages/core/src/(errors|time|ids)\\.ts$",
      },
    },
    {
      name: "core-nothing-imports-memory-or-testing",
      severity: "error",
      comment:
        "memory/ (the reference adapter) and testing/ (the conformance suites) sit on top of core: the engine's " +
        "folders never import them (only tests do, and the public entry points export them).",
      from: { path: "^packages/core/src/", pathNot: `${TEST}|^packages/core/src/(memory|testing)/|^packages/core/src/index\\.ts$` },
      to: { path: "^packages/core/src/(memory|testing)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    // Type-only imports count: a circle of types is still a circle to read.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Workspace packages resolve to their sources (the "source" export condition), as vitest does.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["source", "import", "types", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
