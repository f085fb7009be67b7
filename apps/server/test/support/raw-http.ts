import { Agent, request } from "node:http";

/** An answer read with node:http on a connection of its own, and what became of that connection. */
export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /**
   * Resolves true if the server closes the idle connection within `ms` of
   * the answer, false if it is still open then; the connection is closed after.
   */
  closedWithin(ms: number): Promise<boolean>;
  /** Closes the connection from this side. */
  close(): void;
}

/**
 * One request on a fresh keep-alive connection of its own. fetch shares a
 * pool and hides what becomes of a connection; here the connection itself is
 * under test, and a body the server refuses unread cannot leave a dead socket
 * in the pool the rest of the suite uses.
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Uint8Array } = {},
): Promise<RawReply> {
  const url = new URL(path, base);
  // A keep-alive agent of one socket: after the answer the socket waits in its
  // pool, so a close can only come from the server.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let answered = false;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        agent,
        headers: { ...options.headers, "content-length": String(options.body?.byteLength ?? 0) },
      },
      (res) => {
        answered = true;
        const socket = res.socket;
        const closed = new Promise<true>((done) => socket.once("close", () => done(true)));
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            async closedWithin(ms) {
              let timer: NodeJS.Timeout | undefined;
              const open = new Promise<false>((done) => {
                timer = setTimeout(() => done(false), ms);
              });
              const outcome = await Promise.race([closed, open]);
              clearTimeout(timer);
              agent.destroy();
              return outcome;
            },
            close: () => agent.destroy(),
          }),
        );
      },
    );
    // A server that answers before reading the whole body may reset the upload;
    // once the answer has arrived, that is not a failure of the request.
    req.on("error", (error) => {
      if (!answered) {
        agent.destroy();
        reject(error);
      }
    });
    req.end(options.body);
  });
}
