import type { Actor, Marketplace } from "@psm/core";
import type { McpServerOptions } from "./server.js";

/** A running stdio server: resolves `closed` once the client has gone or `close` was called. */
export interface StdioSession {
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one caller's MCP server over this process's stdin and stdout, for a
 * local client that starts the process. Nothing else may write to stdout
 * meanwhile: it carries JSON-RPC. The session ends when the client closes
 * stdin (the SDK's transport does not watch for that, and a client would wait
 * for its child to exit) or on `close()`.
 */
export async function serveStdio(
  marketplace: Marketplace,
  actor: Actor,
  options: McpServerOptions,
): Promise<StdioSession> {
  // Loaded here, not with the package: the HTTP server imports this package and may never serve stdio.
  const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import("./server.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
  ]);
  const server = createMcpServer(marketplace, actor, options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const close = () => server.close();
  process.stdin.once("end", () => void close());
  await server.connect(new StdioServerTransport());
  return { closed, close };
}
