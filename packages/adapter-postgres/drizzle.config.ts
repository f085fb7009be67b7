import { defineConfig } from "drizzle-kit";

// `pnpm --filter @psm/adapter-postgres db:generate` diffs src/schema*.ts against
// the last snapshot in ./migrations/meta and writes the next SQL migration.
// Statements Drizzle cannot express go in `drizzle-kit generate --custom` files.
export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./src/schema.ts",
    "./src/schema-events.ts",
    "./src/schema-sessions.ts",
    "./src/schema-oauth.ts",
    "./src/schema-saved-searches.ts",
  ],
  out: "./migrations",
});
