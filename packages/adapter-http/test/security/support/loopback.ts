import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listening } from "./listening.js";

/** A loopback HTTP server that records what reaches it. */
export interface Loopback {
  url: string;
  /** Paths requested so far. */
  hits: string[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and a free port; `answer` handles each request (200 "ok" by default). */
export async function startLoopback(
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) => res.end("ok"),
): Promise<Loopback> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => answer(req, res, body));
  });
  server.listen(0, "127.0.0.1");
  const { url, close } = await listening(server);
  return { url, hits, close };
}
