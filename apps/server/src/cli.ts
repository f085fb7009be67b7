// The commands of `psm-server`, dispatched from bin.ts once the Node.js version
// is known to be enough. Each command imports what it needs when it runs, so
// --help and --version answer without loading the server or a database driver.
import { enableCompileCache } from "node:module";
import type { Config } from "./config.js";
import { packageVersion } from "./package-version.js";

/** Exit codes: the command did its work; it ran and failed; it could not run as given. */
const DONE = 0;
const FAILED = 1;
const REFUSED = 2;

const USAGE = `Usage: psm-server [command]

Commands:
  serve           start the server (the default when no command is given)
  migrate         apply pending database migrations, then exit
  backup PATH     copy the SQLite database to PATH, a new file, while the server may run
  check-config    check the configuration in the environment, then exit
  seed-demo       fill a fresh database with demo accounts, listings and messages
                  (refuses a database that has accounts, and NODE_ENV=production)

Options:
  -h, --help      show this help
  -v, --version   print the version

Configuration comes from environment variables, among them:
  PORT, HOST      where the server listens (default 127.0.0.1:3000)
  DATA_DIR        SQLite database, generated JWT secret and mail outbox (default ./data)
  DATABASE_URL    postgres://... for PostgreSQL, or sqlite:PATH (default DATA_DIR/marketplace.db)
  PUBLIC_URL      the address people open, the base of links in mail
  JWT_SECRET      token secret of 32 bytes or more, required when NODE_ENV=production
Every variable is described in README.md, section "Configuration".

Exit codes: 0 done, 1 failed, 2 bad command line or configuration.
`;

/** Runs the command `args` name, setting process.exitCode; `serve` leaves the server running. */
export async function run(args: readonly string[]): Promise<void> {
  const code = await dispatch(args);
  if (code !== undefined) process.exitCode = code;
}

async function dispatch(args: readonly string[]): Promise<number | undefined> {
  // Help wins wherever it appears, so `psm-server backup --help` explains rather than copies.
  if (args.includes("--help") || args.includes("-h")) return say(USAGE, DONE);
  const [command = "serve", ...rest] = args;
  if (command === "--version" || command === "-v")
    return expectNone(rest) ?? say(`${packageVersion()}\n`, DONE);
  switch (command) {
    case "serve":
      return expectNone(rest) ?? serve();
    case "migrate":
      return expectNone(rest) ?? migrate();
    case "check-config":
      return expectNone(rest) ?? checkConfig();
    case "seed-demo":
      return expectNone(rest) ?? seedDemo();
    case "backup":
      if (rest.length !== 1 || rest[0] === undefined || rest[0].startsWith("-")) {
        return usageError("backup needs exactly one argument: the PATH of the copy to create");
      }
      return backup(rest[0]);
    default:
      return usageError(`unknown ${command.startsWith("-") ? "option" : "command"} "${command}"`);
  }
}

function say(text: string, code: number): number {
  process.stdout.write(text);
  return code;
}

function fail(line: string, code: number): number {
  process.stderr.write(`${line.replace(/\s+/g, " ").trim()}\n`);
  return code;
}

function usageError(why: string): number {
  process.stderr.write(`psm-server: ${why}\n\n${USAGE}`);
  return REFUSED;
}

function expectNone(rest: readonly string[]): number | undefined {
  return rest.length === 0 ? undefined : usageError(`unexpected argument "${rest[0]}"`);
}

/** main.js starts the server when imported, and reports its own start failures. */
async function serve(): Promise<number | undefined> {
  try {
    // V8's compiled code for the ~850 modules the server loads is kept on disk (NODE_COMPILE_CACHE,
    // else the system's temp folder) and reused by the next start: docs/performance.md, "Footprint".
    // Before the import: a module graph is compiled before any of it runs. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
    enableCompileCache();
    await import("./main.js");
    return undefined;
  } catch (error) {
    return fail(`Failed to start: ${await why(error)}`, FAILED);
  }
}

/** The configuration the server would start with, or the exit code after printing why not. */
async function configOrExit(): Promise<Config | number> {
  const { ConfigError, readConfig } = await import("./config.js");
  try {
    return readConfig();
  } catch (error) {
    // A ConfigError names its variable and never holds a secret's value.
    if (error instanceof ConfigError) return fail(error.message, REFUSED);
    throw error;
  }
}

/** Which storage, for a line on the terminal: a SQLite path, never the PostgreSQL URL (it may hold a password). */
function describeStorage(config: Config): string {
  return config.database.kind === "sqlite"
    ? `sqlite (${config.database.file})`
    : "postgres (the database at DATABASE_URL)";
}

async function checkConfig(): Promise<number> {
  const config = await configOrExit();
  if (typeof config === "number") return config;
  return say(`OK: storage ${describeStorage(config)}, public URL ${config.publicUrl}\n`, DONE);
}

async function migrate(): Promise<number> {
  const config = await configOrExit();
  if (typeof config === "number") return config;
  const { openStorage } = await import("./storage.js");
  try {
    // The server's own opening: the same folder creation, driver and migrations as at start.
    const storage = await openStorage(config);
    await storage.close();
  } catch (error) {
    return fail((await why(error)).replace(/^Failed to start:/, "Migration failed:"), FAILED);
  }
  return say(`Migrations applied: storage ${describeStorage(config)}\n`, DONE);
}

async function backup(path: string): Promise<number> {
  const config = await configOrExit();
  if (typeof config === "number") return config;
  if (config.database.kind === "postgres") {
    return fail(
      "backup copies SQLite databases only; for the PostgreSQL at DATABASE_URL use pg_dump, e.g. " +
        'pg_dump --format=custom --file=psm.dump "$DATABASE_URL" (restore with pg_restore)',
      REFUSED,
    );
  }
  const { backupSqlite, BackupRefused } = await import("./backup.js");
  try {
    const written = await backupSqlite(config.database.file, path);
    return say(`Backed up ${config.database.file} to ${written}\n`, DONE);
  } catch (error) {
    if (error instanceof BackupRefused) return fail(`Backup refused: ${error.message}`, REFUSED);
    return fail(`Backup failed: ${await why(error)}`, FAILED);
  }
}

async function seedDemo(): Promise<number> {
  const config = await configOrExit();
  if (typeof config === "number") return config;
  if (config.production) {
    return fail("seed-demo refused: NODE_ENV=production (demo accounts share one known password)", REFUSED);
  }
  const { openMarketplace } = await import("./marketplace.js");
  const { DemoRefused, seedDemo: seed } = await import("./seed-demo.js");
  const { DEMO_PASSWORD } = await import("./demo-data.js");
  let opened: Awaited<ReturnType<typeof openMarketplace>>;
  try {
    // The server's own opening: DATA_DIR, its secret and migrations, as at start.
    opened = await openMarketplace(config);
  } catch (error) {
    return fail(`Seeding failed: ${await why(error)}`, FAILED);
  }
  try {
    const r = await seed(opened.marketplace);
    return say(
      `Demo data: ${r.members} accounts (password "${DEMO_PASSWORD}"), ${r.listings} listings in ` +
        `${r.categories} categories, ${r.messages} messages; storage ${describeStorage(config)}\n`,
      DONE,
    );
  } catch (error) {
    if (error instanceof DemoRefused) return fail(`seed-demo refused: ${error.message}`, REFUSED);
    return fail(`Seeding failed: ${await why(error)}`, FAILED);
  } finally {
    await opened.documents.close?.();
    await opened.mailer.close?.();
    await opened.storage.close();
  }
}

/** One line saying what went wrong: the error's own message, else its innermost cause (as main.ts says it). */
async function why(error: unknown): Promise<string> {
  if (error instanceof Error && error.message !== "") return error.message;
  const { describeCause } = await import("./start-errors.js");
  return describeCause(error);
}
