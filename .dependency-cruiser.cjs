// Boundaries of the monorepo, checked by `pnpm lint` (STYLE.md: "boundaries are
// checked by a tool, not by eye"). Workspace packages resolve through their
// private "psm-source" export condition, so an import of `@psm/core` is seen as
// packages/core/src/..., and type-only imports count: a cycle through types is
// still a cycle to untangle.

/** Tests, their support files and benchmarks: harnesses that may reach across packages. */
const HARNESS = ["\\.test\\.ts$", "^(packages|apps)/[^/]+/test/", "/test-support/", "^packages/[^/]+/bench/"];

/** What core must not import: a framework, a driver or a transport (its ports stand for them). */
const FRAMEWORKS = ["hono", "@hono/[^/]+", "drizzle-orm", "better-sqlite3", "postgres", "nodemailer"];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A cycle, tests and type-only imports included: split the shared part into a module of its own.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-no-node-builtins",
      severity: "error",
      comment:
        "Core is framework-free and runtime-neutral: no node:* module (time, ids and randomness are ports).",
      from: { path: "^packages/core/src/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "core-no-frameworks",
      severity: "error",
      comment:
        "Core depends on valibot, jose and @noble/hashes only; frameworks and drivers live in adapters.",
      from: { path: "^packages/core/src/" },
      to: { path: `(^|node_modules/)(${FRAMEWORKS.join("|")})(/|$)` },
    },
    {
      name: "core-no-other-package",
      severity: "error",
      comment: "Core imports no other workspace package: adapters depend on core, never the reverse.",
      from: { path: "^packages/core/src/" },
      to: { path: "^(packages/(?!core/)|apps/|@psm/(?!core(/|$)))" },
    },
    {
      name: "adapter-no-other-adapter",
      severity: "error",
      comment:
        "An adapter imports core only: adapters are composed in apps/server, so one never imports another " +
        "(tests and benchmarks may).",
      from: { path: "^packages/(adapter-[^/]+)/", pathNot: HARNESS },
      to: { path: "^(packages/adapter-|@psm/adapter-)", pathNot: "^(packages|@psm)/$1(/|$)" },
    },
    {
      name: "only-apps-compose-adapters",
      severity: "error",
      comment:
        "Only apps/ compose adapters: no other library package imports one, and none imports an app " +
        "(core and adapters have rules of their own above).",
      from: { path: "^packages/(?!core/|adapter-)", pathNot: HARNESS },
      to: { path: "^(packages/adapter-|@psm/adapter-)" },
    },
    {
      name: "only-surfaces-use-the-host",
      severity: "error",
      comment:
        "The host is the edge the surfaces (adapter-http, adapter-web, adapter-mcp) mount under: core and " +
        "the storage and service adapters never import it.",
      from: {
        path: "^packages/(core|adapter-(sqlite|postgres|mail|webhooks|documents|argon2))/",
        pathNot: HARNESS,
      },
      to: { path: "^(packages/host/|@psm/host(/|$))" },
    },
    {
      name: "host-imports-core-only",
      severity: "error",
      comment: "The host imports core and its libraries only: surfaces depend on it, never the reverse.",
      from: { path: "^packages/host/", pathNot: HARNESS },
      to: { path: "^(packages/(?!core/|host/)|apps/|@psm/(?!core(/|$)))" },
    },
    {
      name: "operations-import-core-and-host-only",
      severity: "error",
      comment:
        "The registry of operations is transport-free: it imports core and the host's types, and the " +
        "surfaces import it, never the reverse.",
      from: { path: "^packages/operations/", pathNot: HARNESS },
      to: { path: "^(packages/(?!core/|host/|operations/)|apps/|@psm/(?!core(/|$)|host(/|$)))" },
    },
    {
      name: "only-surfaces-use-the-registry",
      severity: "error",
      comment: "Core, the host and the storage and service adapters never import the registry of operations.",
      from: {
        path: "^packages/(core|host|adapter-(sqlite|postgres|mail|webhooks|documents|argon2))/",
        pathNot: HARNESS,
      },
      to: { path: "^(packages/operations/|@psm/operations(/|$))" },
    },
    {
      name: "packages-no-apps",
      severity: "error",
      comment: "A library package never imports an app: apps depend on packages, never the reverse.",
      from: { path: "^packages/", pathNot: HARNESS },
      to: { path: "^(apps/|@psm/server(/|$))" },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: { path: ["(^|/)dist/", "(^|/)node_modules/", "^examples/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.tests.json" },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["psm-source", "import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".d.ts", ".mjs", ".cjs", ".json"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
