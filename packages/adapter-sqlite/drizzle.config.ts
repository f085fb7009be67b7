import { defineConfig } from "drizzle-kit";

// `pnpm drizzle-kit generate` (from this package) writes SQL migrations into
// ./migrations; the FTS5 table and its triggers live in a custom migration.
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/schema.ts",
    "./src/schema-events.ts",
    "./src/schema-sessions.ts",
    "./src/schema-oauth.ts",
    "./src/schema-saved-searches.ts",
  ],
  out: "./migrations",
});
