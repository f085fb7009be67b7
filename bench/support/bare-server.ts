/**
 * The ceilings: a bare node:http server answering fixed bytes from memory.
 * `node bench/support/bare-server.ts` answers a JSON hello; with a file
 * argument it answers that file's bytes (the payload ceiling: our own default
 * page). Run as its own process so the load generator does not share its CPU.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const file = process.argv[2];
const body = file ? readFileSync(file) : Buffer.from(JSON.stringify({ hello: "world" }));
const headers = { "content-type": "application/json", "content-length": String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => process.exit(0));
