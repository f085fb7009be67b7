/**
 * The ceilings: a bare node:http server answering from memory.
 * `node bench/support/bare-server.ts` answers a JSON hello (fixed bytes);
 * `node bench/support/bare-server.ts <file>` parses that file (our own
 * default page) once and answers `JSON.stringify` of it on every request, as
 * any JSON server must at the least. Run as its own process so the load
 * generator does not share its CPU.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const file = process.argv[2];
const hello = Buffer.from(JSON.stringify({ hello: "world" }));
const page: unknown = file ? JSON.parse(readFileSync(file, "utf8")) : undefined;

const server = createServer((_request, response) => {
  const body = page === undefined ? hello : JSON.stringify(page);
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => process.exit(0));
