import { describe, expect, test } from "vitest";
import { logInStatus, signUp, updatePassword } from "../support/accounts.js";
import { harnessFor } from "../support/harness.js";
import { PUBLIC_URL, smtpUrl, startMailServer } from "../support/mail-server.js";
import { deliveredOnce, mailsTo, requestReset } from "../support/reset-flow.js";
import { freePort, type ServerProcess, stopServer, tail } from "../support/server-process.js";
import { waitFor } from "../support/wait.js";

/**
 * Waits until the server has logged a dispatch round that will retry. The
 * log is the only outside sign that an attempt failed when nothing was
 * listening, and waiting for it keeps the test free of sleeps.
 */
function waitForRetryLogged(server: ServerProcess): Promise<true> {
  return waitFor(
    "a failed attempt in the server log",
    () =>
      server
        .output()
        .split("\n")
        .some((line) => line.includes('"msg":"mail dispatch"') && /"retried":[1-9]/.test(line))
        ? true
        : undefined,
    { context: () => tail(server.output()) },
  );
}

// MAIL_RETRY: first retry 1-2 s after a failure, and the dispatcher polls every
// second, so each of these takes a few seconds, not minutes. They mostly wait
// on those timers, each with servers of its own, so they run side by side.
describe.concurrent("reset mail survives SMTP failures", { timeout: 180_000 }, () => {
  test("a 451 on the first attempt: the mail arrives once, after the retry", async ({ onTestFinished }) => {
    const { server, smtp, context } = await startMailServer(harnessFor(onTestFinished), {
      smtp: { refuse: (attempt) => attempt === 1 },
      env: { PUBLIC_URL },
    });
    const email = "retry@example.com";
    await signUp(server.url, email, "old-password");
    await requestReset(server.url, email);

    const token = await deliveredOnce(server.url, smtp, email, PUBLIC_URL, context);
    expect(smtp.refused()).toBe(1);

    // The token of the refused attempt was dropped; the delivered one works.
    const changed = await updatePassword(server.url, token, "new-password");
    expect(changed.status).toBe(200);
    expect(await logInStatus(server.url, email, "new-password")).toBe(200);
  });

  test("SMTP down at first, then started on the same port: the mail arrives once", async ({
    onTestFinished,
  }) => {
    const h = harnessFor(onTestFinished);
    const port = await freePort();
    const server = await h.server({
      dataDir: await h.dataDir(),
      env: { SMTP_URL: smtpUrl(port), PUBLIC_URL },
    });
    const context = () => tail(server.output());
    const email = "down@example.com";
    await signUp(server.url, email, "old-password");
    await requestReset(server.url, email);
    await waitForRetryLogged(server);

    const smtp = await h.smtp({ port });
    const token = await deliveredOnce(server.url, smtp, email, PUBLIC_URL, context);
    const changed = await updatePassword(server.url, token, "new-password");
    expect(changed.status).toBe(200);
  });

  test("our server restarted between attempts: the new process sends the mail, once", async ({
    onTestFinished,
  }) => {
    const h = harnessFor(onTestFinished);
    let refusing = true;
    const smtp = await h.smtp({ refuse: () => refusing });
    const dataDir = await h.dataDir();
    const env = { SMTP_URL: smtpUrl(smtp.port), PUBLIC_URL };
    const first = await h.server({ dataDir, env });
    const email = "restart@example.com";
    await signUp(first.url, email, "old-password");
    await requestReset(first.url, email);
    await waitForRetryLogged(first);
    expect(smtp.refused()).toBeGreaterThanOrEqual(1);

    // SIGTERM drains and exits 0; the job waits in the database for its next attempt.
    expect(await stopServer(first, "SIGTERM")).toBe(0);
    expect(mailsTo(smtp, email)).toHaveLength(0);
    refusing = false;

    const second = await h.server({ dataDir, env });
    const context = () => `first:\n${tail(first.output())}\nsecond:\n${tail(second.output())}`;
    const token = await deliveredOnce(second.url, smtp, email, PUBLIC_URL, context);

    const changed = await updatePassword(second.url, token, "new-password");
    expect(changed.status).toBe(200);
    expect(await logInStatus(second.url, email, "old-password")).toBe(401);
    expect(await logInStatus(second.url, email, "new-password")).toBe(200);
  });
});
