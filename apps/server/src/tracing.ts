import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestTracer } from "@psm/host";
import type { StorageCallObserver } from "./storage-calls.js";

/** What the server hands to the host and the storage when tracing is on. */
export interface Tracing {
  /** Runs each request in a server span named for its route, with its request id. */
  request: RequestTracer;
  /** A client span for each storage call, a child of the request's span. */
  storage: StorageCallObserver;
  /** Sends the spans still buffered and stops (on SIGTERM). */
  shutdown(): Promise<void>;
}

/** The attribute that names the request of a span: the X-Request-Id the caller got and the logs show. */
export const REQUEST_ID_ATTRIBUTE = "psm.request_id";

/**
 * OpenTelemetry tracing to an OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT): spans are
 * batched and posted as JSON to `{endpoint}/v1/traces`. The SDK is imported here, on demand, so
 * a server without the variable loads none of it.
 */
export async function startTracing(endpoint: string, version: string): Promise<Tracing> {
  const [api, sdk, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/resources"),
    ]);
  const { context, trace, SpanKind, SpanStatusCode } = api;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": "psm-server", "service.version": version }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer("psm-server", version);
  // The request id of the request being served, for the storage spans it causes.
  const current = new AsyncLocalStorage<string>();
  const failed = (span: ReturnType<typeof tracer.startSpan>, error: unknown) => {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  };

  return {
    async request({ method, requestId }, next, labels) {
      const span = tracer.startSpan(method, {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": method, [REQUEST_ID_ATTRIBUTE]: requestId },
      });
      try {
        await context.with(trace.setSpan(context.active(), span), () => current.run(requestId, next));
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        const answered = labels();
        span.updateName(`${answered.method} ${answered.operation}`);
        span.setAttributes({
          "http.route": answered.operation,
          "http.response.status_code": answered.status,
        });
        if (answered.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
    storage: {
      start(repository, method) {
        const requestId = current.getStore();
        const span = tracer.startSpan(`${repository}.${method}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            "psm.repository": repository,
            "db.operation.name": method,
            ...(requestId === undefined ? {} : { [REQUEST_ID_ATTRIBUTE]: requestId }),
          },
        });
        return (error) => {
          if (error !== undefined) failed(span, error);
          span.end();
        };
      },
    },
    shutdown: () => provider.shutdown(),
  };
}
