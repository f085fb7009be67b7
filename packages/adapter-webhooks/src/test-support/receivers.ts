/** Real HTTP receivers on 127.0.0.1 for the transport tests: each records what reached it. */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
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
  /** `http://127.0.0.1:<port>` (or https) */
  origin: string;
  port: number;
  /** Every request that reached it, in order. */
  requests: ReceivedRequest[];
  /** Resolves when a response it started has been closed, by either side. */
  responseClosed(): Promise<void>;
  close(): Promise<void>;
}

const NO_CONTENT: Answer = (response) => response.writeHead(204).end();

/** Starts a receiver on a free loopback port; `answer` defaults to 204 No Content. */
export function startReceiver(answer: Answer = NO_CONTENT): Promise<Receiver> {
  return listen("http", answer);
}

/**
 * Starts an https receiver whose certificate (for 127.0.0.1, valid until 2126) is self-signed
 * and trusted by nobody: a client that verifies certificates must refuse it.
 */
export function startUntrustedTlsReceiver(answer: Answer = NO_CONTENT): Promise<Receiver> {
  return listen("https", answer);
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

async function listen(scheme: "http" | "https", answer: Answer): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let closed: () => void = () => {};
  const closedOnce = new Promise<void>((resolve) => (closed = resolve));
  const handle = (incoming: IncomingMessage, response: ServerResponse) => {
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
  };
  const server =
    scheme === "https"
      ? createTlsServer(
          { key: fixture("self-signed-key.pem"), cert: fixture("self-signed-cert.pem") },
          handle,
        )
      : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    origin: `${scheme}://127.0.0.1:${port}`,
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
