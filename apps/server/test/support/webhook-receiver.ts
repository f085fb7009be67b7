import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One POST a receiver got, with what each known secret made of its signature. */
export interface Received {
  id: string;
  type: string;
  body: string;
  /** Per secret (in the order given to the receiver): whether it verifies this delivery. */
  verifiedBy: boolean[];
  signatures: number;
}

/** A local webhook receiver: verifies every delivery with the standardwebhooks library. */
export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Secrets to verify with from now on. */
  trust(...secrets: string[]): void;
  /** The status the next deliveries get (default 204). */
  answerWith(status: number): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a receiver on 127.0.0.1 (`port` 0: any free one). */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let secrets: string[] = [];
  let status = 204;
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const headers = {
      "webhook-id": String(request.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
    };
    const verifiedBy = secrets.map((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const type = (() => {
      try {
        return String((JSON.parse(body) as { type?: unknown }).type);
      } catch {
        return "";
      }
    })();
    received.push({
      id: headers["webhook-id"],
      type,
      body,
      verifiedBy,
      signatures: headers["webhook-signature"].split(" ").filter(Boolean).length,
    });
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    trust(...given) {
      secrets = given;
    },
    answerWith(next) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
