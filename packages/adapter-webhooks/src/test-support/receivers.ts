/** Real HTTP receivers on 127.0.0.1 for the transport tests: each records what reached it. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers a request once its body has been read. */
export type Answer = (response: ServerResponse, request: ReceivedRequest) => void;

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request that reached it, in order. */
  requests: ReceivedRequest[];
  /** Resolves when a response it started has been closed, by either side. */
  responseClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port; `answer` defaults to 204 No Content. */
export async function startReceiver(answer: Answer = (response) => response.writeHead(204).end()) {
  const requests: ReceivedRequest[] = [];
  let closed: () => void = () => {};
  const closedOnce = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      response.on("close", () => closed());
      answer(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    responseClosed: () => closedOnce,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Writes body chunks until the client goes away: an endless answer. */
export function endlessBody(status: number): Answer {
  return (response) => {
    response.writeHead(status, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(16 * 1024, "x");
    const write = (): void => {
      while (!response.destroyed && response.write(chunk)) {
        // keep the socket's buffer full
      }
      if (!response.destroyed) response.once("drain", write);
    };
    write();
  };
}

/** Never answers: the request hangs until the client gives up. */
export const silence: Answer = () => {};
