import { describe, expect, test } from "vitest";
import { signUp } from "../support/accounts.js";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import { PUBLIC_URL, smtpUrl } from "../support/mail-server.js";
import { tail } from "../support/server-process.js";
import { startSilentPort } from "../support/silent-port.js";
import { waitFor } from "../support/wait.js";

describe("reset-password answers whatever the mail transport is doing", () => {
  const h = useHarness();

  test("while a send hangs on a silent SMTP server, requests still answer 200 {success: true}", async () => {
    const silent = await startSilentPort();
    h.defer(() => silent.close());
    const server = await h.server({
      dataDir: await h.dataDir(),
      env: { SMTP_URL: smtpUrl(silent.port), PUBLIC_URL },
    });
    // Clean-up runs in reverse, so this hangs up before the server is stopped:
    // the dispatcher's stuck round ends at once and shutdown need not wait for its timeout.
    h.defer(() => silent.close());
    const context = () => tail(server.output());
    await signUp(server.url, "stuck@example.com", "old-password");

    const first = await call(server.url, "POST", "/api/auth/reset-password", {
      body: { email: "stuck@example.com" },
    });
    expect(first.status).toBe(200);
    // The dispatcher is now connected and waiting for a greeting that never comes.
    await waitFor("the dispatcher to connect", () => (silent.sockets.length > 0 ? true : undefined), {
      context,
    });

    // A known address (its mail queues behind the stuck one) and an unknown one.
    for (const email of ["stuck@example.com", "unknown@example.com"]) {
      const res = await call(server.url, "POST", "/api/auth/reset-password", { body: { email } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    }
    // Answered while the send was still stuck: nobody hung up on the silent server yet.
    expect(silent.sockets.every((socket) => !socket.destroyed && !socket.readableEnded)).toBe(true);
  });
});
