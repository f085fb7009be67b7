import { connect, type Socket } from "node:net";

/** An upload whose body trickles in over a raw socket, as a slow (or hostile) client sends it. */
export interface SlowUpload {
  /** Everything the server answered so far. */
  reply(): string;
  /** Settles when the server closes the connection, with what the client had sent by then. */
  closed: Promise<{ bytesSent: number; reply: string }>;
  /** Resolves once the server's answer has begun (or the connection closed). */
  answered: Promise<string>;
  stop(): void;
}

/**
 * Opens POST /api/parse-pdf declaring a `declared`-byte multipart body, sends the head and the
 * part's start at once, then one byte every `gapMs`, never finishing unless `declared` is reached.
 */
export function slowUpload(port: number, token: string, declared: number, gapMs: number): SlowUpload {
  const boundary = "slowBoundary";
  const start = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const head =
    `POST /api/parse-pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`;
  const socket: Socket = connect(port, "127.0.0.1");
  let sent = 0;
  let reply = "";
  let timer: NodeJS.Timeout | undefined;
  let answer: (text: string) => void = () => {};
  const answered = new Promise<string>((resolve) => {
    answer = resolve;
  });
  const closed = new Promise<{ bytesSent: number; reply: string }>((resolve) => {
    const done = () => {
      clearInterval(timer);
      answer(reply);
      resolve({ bytesSent: sent, reply });
    };
    socket.on("close", done);
    socket.on("error", () => socket.destroy());
  });
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    reply += chunk;
    answer(reply);
  });
  socket.on("connect", () => {
    socket.write(head + start);
    sent = start.length;
    timer = setInterval(() => {
      if (sent >= declared || socket.destroyed) return clearInterval(timer);
      socket.write("a");
      sent++;
    }, gapMs);
  });
  return {
    reply: () => reply,
    closed,
    answered,
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}
