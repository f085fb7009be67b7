import type { Server } from "node:http";
import { connect } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { AppEnv } from "../../../src/index.js";
import { type Listening, listening } from "./listening.js";

/** The timeouts apps/server/src/main.ts sets, scaled down for a test. */
export interface Timeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  /** How often Node looks for timed-out requests (main.ts: 1 s; Node's default 30 s). */
  connectionsCheckingInterval: number;
}

/**
 * Serves `app` with @hono/node-server on 127.0.0.1:0, as main.ts does: a real HTTP server, for
 * attacks where the socket matters.
 */
export async function startRealServer(app: Hono<AppEnv>, timeouts?: Timeouts): Promise<Listening> {
  const serverOptions = timeouts ? { connectionsCheckingInterval: timeouts.connectionsCheckingInterval } : {};
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", serverOptions }) as Server;
  if (timeouts) {
    server.headersTimeout = timeouts.headersTimeout;
    server.requestTimeout = timeouts.requestTimeout;
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
  }
  return listening(server);
}

/** How a trickling client ended: cut off by the server, or done sending everything it had. */
export interface TrickleResult {
  closedByServer: boolean;
  bytesSent: number;
  reply: string;
}

/**
 * Sends `head` one byte every `gapMs` and never finishes the header block, as
 * a slowloris client does. Stops when the server closes the socket or after
 * `maxBytes` bytes, whichever comes first; the test bounds its own duration.
 */
export function trickleHeaders(port: number, gapMs: number, maxBytes: number): Promise<TrickleResult> {
  const head = `GET /api/listings HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(maxBytes)}`;
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    let sent = 0;
    let reply = "";
    let finished = false;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      socket.destroy();
      done({ closedByServer, bytesSent: sent, reply });
    };
    const timer = setInterval(() => {
      if (sent >= maxBytes) return finish(false);
      socket.write(head[sent] ?? "a");
      sent++;
    }, gapMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      reply += chunk;
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
  });
}
