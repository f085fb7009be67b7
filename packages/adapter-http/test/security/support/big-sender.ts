import { connect } from "node:net";

/** How one oversized request ended, seen from the client. */
export interface BigSendOutcome {
  /** The status line's code, or null when no answer arrived before the connection ended. */
  status: number | null;
  /** The response body as far as it arrived. */
  body: string;
  /** The socket error the client met (EPIPE, ECONNRESET), if any. */
  error: string | null;
  /** Body bytes the client managed to write. */
  sent: number;
}

/** One request of `sendBig`. */
export interface BigRequest {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body is this prefix, then filler bytes up to `totalBytes`. */
  prefix: string;
  totalBytes: number;
  /** Send `Content-Length` (default), or `Transfer-Encoding: chunked`. */
  chunked?: boolean;
  /** Gives up (error "timeout") after this long. Default 30 s. */
  timeoutMs?: number;
}

const CHUNK = 64 * 1024;

/**
 * A client that keeps sending: it writes the whole body as fast as the socket takes it, whatever
 * the server answers meanwhile (as curl or a mobile client uploading a big file does), and
 * reads whatever answer comes. An answer lost to a reset shows as `status: null`.
 */
export function sendBig(request: BigRequest): Promise<BigSendOutcome> {
  const { port, method, path, headers, prefix, totalBytes, chunked = false, timeoutMs = 30_000 } = request;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let reply = Buffer.alloc(0);
    let error: string | null = null;
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = reply.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const body = text.includes("\r\n\r\n") ? text.slice(text.indexOf("\r\n\r\n") + 4) : "";
      resolve({ status: status ? Number(status) : null, body, error, sent });
    };
    socket.on("data", (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      // A whole answer on a connection the server keeps open ends the exchange too.
      const end = reply.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(reply.subarray(0, end).toString("latin1"))?.[1];
      if (end >= 0 && length !== undefined && reply.byteLength >= end + 4 + Number(length)) finish();
    });
    const timer = setTimeout(() => {
      error ??= "timeout";
      finish();
    }, timeoutMs);
    socket.on("error", (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      finish();
    });
    socket.on("close", finish);
    socket.on("end", finish);
    socket.on("connect", () => {
      const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1"];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      lines.push(chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${totalBytes}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      const filler = Buffer.alloc(CHUNK, 0x61);
      const first = Buffer.from(prefix, "utf8");
      const pump = () => {
        while (sent < totalBytes && !socket.destroyed) {
          const part = sent === 0 ? first : filler.subarray(0, Math.min(CHUNK, totalBytes - sent));
          sent += part.byteLength;
          const framed = chunked
            ? Buffer.concat([Buffer.from(`${part.byteLength.toString(16)}\r\n`), part, Buffer.from("\r\n")])
            : part;
          if (!socket.write(framed)) return void socket.once("drain", pump);
        }
        if (chunked && !socket.destroyed) socket.write("0\r\n\r\n");
      };
      pump();
    });
  });
}
