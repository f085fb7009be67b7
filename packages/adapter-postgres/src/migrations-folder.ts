import { fileURLToPath } from "node:url";

/**
 * The committed migrations, beside src/ and dist/ alike (package.json "files"
 * ships the folder), wherever the package is installed. A file of its own,
 * free of driver imports, so the public types stay driver-free.
 */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../migrations", import.meta.url));
