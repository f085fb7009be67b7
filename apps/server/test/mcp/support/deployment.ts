import type { Backend } from "../../e2e/support/backends.js";
import { startWorld, type World } from "../../e2e/support/world.js";
import { freePort } from "../../support/server-process.js";

/** A running server on a fresh database: the e2e world, in strict mode, with PUBLIC_URL naming its port. */
export type Deployment = World;

/** Starts the compiled server (strict mode, the admin configured) on `backend`, with `env` besides. */
export async function deploy(backend: Backend, env: Record<string, string> = {}): Promise<Deployment> {
  // A port of its own up front: PUBLIC_URL (the MCP resource's address) must name it.
  const port = String(await freePort());
  return startWorld(backend, "strict", { PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env });
}
