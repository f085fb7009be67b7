import { POSTGRES_SKIP_REASON } from "@psm/adapter-postgres/testing";
import { describe, expect, test } from "vitest";
import { logInStatus, signUp, updatePassword } from "../support/accounts.js";
import { BACKENDS } from "../support/backends.js";
import { type Harness, useShared } from "../support/harness.js";
import { PUBLIC_URL, smtpUrl } from "../support/mail-server.js";
import {
  deliveredOnce,
  drainWithSentinel,
  expectResetMail,
  mailsTo,
  requestReset,
  waitForMails,
} from "../support/reset-flow.js";
import { type ServerProcess, SHARED_JWT_SECRET, stopServer, tail } from "../support/server-process.js";
import type { SmtpReceiver } from "../support/smtp-receiver.js";
import { waitFor } from "../support/wait.js";

interface Pair {
  servers: [ServerProcess, ServerProcess];
  smtp: SmtpReceiver;
  /** While true, the receiver answers every attempt with 451. */
  refusing: { value: boolean };
  context: () => string;
}

/** Two server processes on one fresh PostgreSQL database, sending through one SMTP receiver. */
async function startPair(h: Harness): Promise<Pair> {
  const database = await h.database("postgres", "psm_mail");
  const refusing = { value: false };
  const smtp = await h.smtp({ refuse: () => refusing.value });
  const env = {
    ...database.env,
    SMTP_URL: smtpUrl(smtp.port),
    PUBLIC_URL,
    // One secret for both, as a real deployment behind a load balancer has.
    JWT_SECRET: SHARED_JWT_SECRET,
  };
  // One after the other: both would otherwise race to run the migrations.
  const a = await h.server({ dataDir: await h.dataDir(), env });
  const b = await h.server({ dataDir: await h.dataDir(), env });
  const context = () => `a:\n${tail(a.output())}\nb:\n${tail(b.output())}`;
  return { servers: [a, b], smtp, refusing, context };
}

/** Mails the process logged as sent ("mail dispatch" lines), summed. */
function loggedSent(server: ServerProcess): number {
  return [...server.output().matchAll(/"sent":(\d+)[^\n]*"msg":"mail dispatch"/g)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

/**
 * Waits until nothing more can be on its way: a sentinel mail requested
 * through each process has arrived, and the two logs together account for
 * every mail received (a duplicate send would be counted there too).
 */
async function drainPair({ servers, smtp, context }: Pair): Promise<void> {
  await Promise.all(servers.map((server) => drainWithSentinel(server.url, smtp, context)));
  await waitFor(
    "the logs to account for every mail received",
    () => (servers.reduce((sum, s) => sum + loggedSent(s), 0) >= smtp.received.length ? true : undefined),
    { context },
  );
  expect(servers.reduce((sum, s) => sum + loggedSent(s), 0)).toBe(smtp.received.length);
}

function registerTests(): void {
  // The tests use addresses of their own, so they share the database and the processes.
  const pair = useShared(startPair);

  test("requests spread over both processes: each mail is sent exactly once", async () => {
    const { servers, smtp, context } = pair();
    const users = ["pg0@example.com", "pg1@example.com", "pg2@example.com", "pg3@example.com"];
    await Promise.all(users.map((email, i) => signUp(servers[i % 2]!.url, email, "old-password")));

    // Two requests per user, one through each process, all at once: both
    // dispatchers are poked and poll the same queue at the same time.
    await Promise.all(users.flatMap((email) => servers.map((server) => requestReset(server.url, email))));
    for (const email of users) await waitForMails(smtp, email, 2, context);
    await drainPair(pair());

    const mails = users.flatMap((email) => mailsTo(smtp, email));
    expect(mails).toHaveLength(8);
    for (const email of users) expect(mailsTo(smtp, email)).toHaveLength(2);
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(8);
    const tokens = users.flatMap((email) =>
      mailsTo(smtp, email).map((mail) => expectResetMail(mail, email, PUBLIC_URL).token),
    );
    expect(new Set(tokens).size).toBe(8);

    // A token works whichever process serves it: the reset tokens are shared too.
    const [a, b] = servers;
    const token = expectResetMail(mailsTo(smtp, users[0]!)[0]!, users[0]!, PUBLIC_URL).token;
    const changed = await updatePassword(b.url, token, "new-password");
    expect(changed.status).toBe(200);
    expect(await logInStatus(a.url, users[0]!, "old-password")).toBe(401);
    expect(await logInStatus(a.url, users[0]!, "new-password")).toBe(200);
  });

  test("a concurrent burst over both processes still queues at most three mails per address", async () => {
    const { servers, smtp, context } = pair();
    const email = "pg-burst@example.com";
    await signUp(servers[0].url, email, "old-password");
    await Promise.all(Array.from({ length: 30 }, (_, i) => requestReset(servers[i % 2]!.url, email)));
    await waitForMails(smtp, email, 1, context);
    await drainPair(pair());
    expect(mailsTo(smtp, email).length).toBeLessThanOrEqual(3);
  });

  // Last: it stops one of the two processes.
  test("a process stopped after a refused attempt: the other one delivers the mail, once", async () => {
    const { servers, smtp, refusing, context } = pair();
    const [a, b] = servers;
    const email = "pg-takeover@example.com";
    await signUp(a.url, email, "old-password");
    const refusedBefore = smtp.refused();
    refusing.value = true;
    await requestReset(a.url, email);
    await waitFor("a refused attempt", () => (smtp.refused() > refusedBefore ? true : undefined), {
      context,
    });
    expect(await stopServer(a, "SIGTERM")).toBe(0);
    refusing.value = false;

    const token = await deliveredOnce(b.url, smtp, email, PUBLIC_URL, context);
    const changed = await updatePassword(b.url, token, "new-password");
    expect(changed.status).toBe(200);
  });
}

if (!BACKENDS.includes("postgres")) {
  test.skip(`reset mail with two processes on PostgreSQL: ${POSTGRES_SKIP_REASON}`, () => {});
} else {
  describe("reset mail with two server processes on one PostgreSQL", { timeout: 180_000 }, registerTests);
}
