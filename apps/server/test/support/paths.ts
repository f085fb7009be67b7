import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** apps/server: its dist/ is what the tests run, as `pnpm start` builds it. */
export const APP_DIR = join(REPO_ROOT, "apps/server");
