import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encodings a precompressed body is kept in, best first. */
const CODINGS = ["br", "gzip"] as const;

/** A content coding this server answers with. */
export type ContentCoding = (typeof CODINGS)[number] | "identity";

/** One body in every coding it is served in; the compressed ones arrive when zlib is done. */
export interface Precompressed {
  readonly identity: Uint8Array<ArrayBuffer>;
  readonly br: Promise<Uint8Array<ArrayBuffer>>;
  readonly gzip: Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * Starts compressing `body`, off the event loop (zlib's thread pool), for a
 * body that never changes while the process runs; the identity body is
 * served at once meanwhile. Brotli at quality 9 and gzip at level 9: near
 * their best ratios for a fraction of brotli 11's time (Scalar's optional
 * 4.35 MB bundle: about 0.7 s once, against 11 s at quality 11).
 */
export function precompress(body: Uint8Array<ArrayBuffer>): Precompressed {
  const br = brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  }).then((bytes) => new Uint8Array(bytes));
  const gz = gzipAsync(body, { level: 9 }).then((bytes) => new Uint8Array(bytes));
  // A failure is reported to the request that awaits that coding, never as an unhandled rejection.
  for (const pending of [br, gz]) pending.catch(() => {});
  return { identity: body, br, gzip: gz };
}

/**
 * The coding to answer with under `Accept-Encoding` (RFC 9110 12.5.3): the
 * acceptable compressed coding of highest q, brotli on a tie; identity when
 * the header is absent or accepts neither (`*` counts for the codings it does
 * not name, `q=0` refuses).
 */
export function negotiateCoding(acceptEncoding: string | undefined): ContentCoding {
  if (acceptEncoding === undefined) return "identity";
  const weights = new Map<string, number>();
  for (const entry of acceptEncoding.split(",")) {
    const [name = "", ...params] = entry.split(";").map((part) => part.trim().toLowerCase());
    if (name === "") continue;
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(weight) ? weight : 0);
  }
  let best: ContentCoding = "identity";
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weights.get(coding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Answers `body` in the coding the request accepts, with `Content-Encoding`
 * and `Vary: Accept-Encoding` so that a cache keeps the variants apart.
 */
export async function sendPrecompressed(
  c: Context<AppEnv>,
  body: Precompressed,
  contentType: string,
): Promise<Response> {
  const coding = negotiateCoding(c.req.header("accept-encoding"));
  c.header("Vary", "Accept-Encoding", { append: true });
  if (coding === "identity") return c.body(body.identity, 200, { "Content-Type": contentType });
  const bytes = await body[coding];
  c.header("Content-Encoding", coding);
  return c.body(bytes, 200, { "Content-Type": contentType });
}
