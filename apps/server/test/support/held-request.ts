import { connect, type Socket } from "node:net";

/** A request whose body the client starts and then holds, as a stalled (or hostile) client does. */
export interface HeldRequest {
  /** Resolves with what the server answered, once its answer has begun or the connection closed. */
  answered: Promise<string>;
  /** Everything the server answered so far. */
  reply(): string;
  stop(): void;
}

/**
 * Opens `POST path` on a raw socket declaring a `declared`-byte body, sends the head and `first`,
 * and then nothing: a server that waits for the body before it answers never answers.
 */
export function heldRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  declared: number,
  first: string | Uint8Array,
): HeldRequest {
  const url = new URL(base);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    `Content-Length: ${declared}\r\n\r\n`;
  const socket: Socket = connect(Number(url.port), url.hostname);
  let reply = "";
  let answer: (text: string) => void = () => {};
  const answered = new Promise<string>((resolve) => {
    answer = resolve;
  });
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    reply += chunk;
    answer(reply);
  });
  socket.on("close", () => answer(reply));
  socket.on("error", () => socket.destroy());
  socket.on("connect", () => {
    socket.write(head);
    socket.write(first);
  });
  return { answered, reply: () => reply, stop: () => socket.destroy() };
}
