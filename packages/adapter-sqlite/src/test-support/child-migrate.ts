// Child process of migrations.test.ts: migrates the file named by argv[2] at
// the instant argv[3] (ms since epoch), so that several children really race.
import { openSqliteStorage } from "../index.js";

const [file, startAt] = process.argv.slice(2);
if (!file || !startAt) throw new Error("usage: child-migrate.ts FILE START_AT_MS");
const storage = openSqliteStorage({ file });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
await storage.migrate();
await storage.close();
