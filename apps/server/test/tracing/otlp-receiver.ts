import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/JSON export carries it, its attributes flattened to strings and numbers. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

function flatten(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
  }
  return out;
}

/**
 * A collector on loopback that takes OTLP/HTTP JSON exports at /v1/traces (what
 * @opentelemetry/exporter-trace-otlp-http posts) and keeps their spans, as a real collector
 * would decode them: any other path or content type is refused 415.
 */
export async function startOtlpReceiver(): Promise<{
  endpoint: string;
  spans: ReceivedSpan[];
  contentTypes: string[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      contentTypes.push(type);
      if (req.method !== "POST" || req.url !== "/v1/traces" || !type.startsWith("application/json")) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: {
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: {
            spans?: (Omit<ReceivedSpan, "attributes" | "resource"> & { attributes?: KeyValue[] })[];
          }[];
        }[];
      };
      for (const resourceSpan of body.resourceSpans ?? []) {
        const resource = flatten(resourceSpan.resource?.attributes);
        for (const scope of resourceSpan.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ ...span, attributes: flatten(span.attributes), resource });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
