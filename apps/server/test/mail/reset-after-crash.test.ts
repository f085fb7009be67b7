import { describe, expect, test } from "vitest";
import { logInStatus, signUp, updatePassword } from "../support/accounts.js";
import { NAMED_BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useHarness } from "../support/harness.js";
import { PUBLIC_URL, smtpUrl } from "../support/mail-server.js";
import { deliveredOnce, requestReset } from "../support/reset-flow.js";
import { tail } from "../support/server-process.js";
import { startSilentPort } from "../support/silent-port.js";
import { waitFor } from "../support/wait.js";

reportSkippedPostgres("a reset request survives a SIGKILL after its 200");

describe.each(NAMED_BACKENDS)("a reset request acknowledged before a SIGKILL, on $name", ({ backend }) => {
  const h = useHarness();

  test("the restarted server sends its mail, exactly once", { timeout: 180_000 }, async () => {
    const database = await h.database(backend, "psm_reset_crash");
    const dataDir = await h.dataDir();
    const silent = await startSilentPort();
    h.defer(() => silent.close());
    const first = await h.server({
      dataDir,
      env: { ...database.env, SMTP_URL: smtpUrl(silent.port), PUBLIC_URL },
      stopWith: "SIGKILL",
    });
    const email = "crash@example.com";
    await signUp(first.url, email, "old-password");
    // The sign-up's verification mail sends the dispatcher to the silent port,
    // where its round waits for a greeting (10 s before it gives up). The
    // dispatcher runs one round at a time, so until then no round can take the
    // reset request asked for next: it exists only in storage when the process dies.
    await waitFor("the dispatcher to connect", () => (silent.sockets.length > 0 ? true : undefined), {
      context: () => tail(first.output()),
    });
    await requestReset(first.url, email);
    // Still the one stuck round: one connection, not given up on.
    expect(silent.sockets).toHaveLength(1);
    expect(silent.sockets.every((socket) => !socket.destroyed && !socket.readableEnded)).toBe(true);
    await first.stop("SIGKILL");
    await silent.close();

    const smtp = await h.smtp();
    const second = await h.server({
      dataDir,
      env: { ...database.env, SMTP_URL: smtpUrl(smtp.port), PUBLIC_URL },
    });
    const context = () => `first:\n${tail(first.output())}\nsecond:\n${tail(second.output())}`;
    // Exactly one reset mail, proven by a sentinel's mail sent after it.
    const token = await deliveredOnce(second.url, smtp, email, PUBLIC_URL, context);
    expect((await updatePassword(second.url, token, "new-password")).status).toBe(200);
    expect(await logInStatus(second.url, email, "new-password")).toBe(200);
  });
});
