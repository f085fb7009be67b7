import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A server listening on a loopback port: where to reach it, and how to stop it. */
export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Waits until `server` (told to listen on 127.0.0.1, port 0) listens; `close` also ends open
 * connections, so a keep-alive client cannot hold a test's teardown.
 */
export async function listening(server: Server): Promise<Listening> {
  if (!server.listening) {
    await new Promise<void>((done, fail) => {
      server.once("listening", done);
      server.once("error", fail);
    });
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
