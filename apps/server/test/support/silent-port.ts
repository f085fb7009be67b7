import { type AddressInfo, createServer, type Socket } from "node:net";

/** A TCP port that accepts connections and never says a word: an SMTP server stuck before its greeting. */
export async function startSilentPort(): Promise<{
  port: number;
  sockets: Socket[];
  close(): Promise<void>;
}> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  // Idempotent: the test hangs up early, and the clean-up closes it again if the test failed first.
  const closed = new Promise<void>((resolve) => server.once("close", resolve));
  return {
    port,
    sockets,
    close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) server.close();
      return closed;
    },
  };
}
