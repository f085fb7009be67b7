import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One POST a receiver got, with what each known secret made of its signature. */
export interface Received {
  /** The path it was POSTed to (a test may give each case a path of its own). */
  path: string;
  id: string;
  type: string;
  body: string;
  /** The three Standard Webhooks headers as received. */
  headers: Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>;
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

/** Whether `secret` verifies `delivery` (the standardwebhooks library; one of its signatures). */
export function signedWith(secret: string, delivery: Pick<Received, "body" | "headers">): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
    return true;
  } catch {
    return false;
  }
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
    const verifiedBy = secrets.map((secret) => signedWith(secret, { body, headers }));
    const type = (() => {
      try {
        return String((JSON.parse(body) as { type?: unknown }).type);
      } catch {
        return "";
      }
    })();
    received.push({
      path: request.url ?? "",
      headers,
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
