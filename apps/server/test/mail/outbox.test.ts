import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { logInStatus, signUp, updatePassword } from "../support/accounts.js";
import { useHarness } from "../support/harness.js";
import { expectResetMail, requestReset } from "../support/reset-flow.js";
import { tail } from "../support/server-process.js";
import { parseMail } from "../support/smtp-receiver.js";
import { waitFor } from "../support/wait.js";

/** The finished .eml files in `dir` (temporary files start with a dot); none if it is missing. */
async function emlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.filter((name) => name.endsWith(".eml") && !name.startsWith(".")).sort();
}

// No SMTP_URL: the default transport writes each mail into DATA_DIR/outbox.
describe("password reset through the outbox", () => {
  const h = useHarness();

  test("the .eml file parses as a valid message whose token resets the password", async () => {
    const dataDir = await h.dataDir();
    const server = await h.selfLinkedServer({ dataDir });
    const outbox = join(dataDir, "outbox");
    const email = "outbox@example.com";
    await signUp(server.url, email, "old-password");
    await requestReset(server.url, email);

    // The sign-up's verification mail lands there too: the reset mail is the file with its subject.
    const name = await waitFor(
      "a reset .eml file in DATA_DIR/outbox",
      async () => {
        for (const file of await emlFiles(outbox)) {
          if (/^Subject: Reset your password/m.test(await readFile(join(outbox, file), "latin1")))
            return file;
        }
        return undefined;
      },
      { context: () => tail(server.output()) },
    );
    const raw = await readFile(join(outbox, name));
    // RFC 5322: CRLF line ends, and the headers a mail client needs to show it.
    expect(raw.toString("latin1")).toMatch(/\r\n\r\n/);
    expect(raw.toString("latin1")).not.toMatch(/[^\r]\n/);
    const mail = await parseMail(raw);
    expect(mail.headers.get("mime-version")).toBe("1.0");
    expect(mail.from?.value[0]?.address).toBe("no-reply@localhost");
    const { link, token } = expectResetMail(mail, email, server.url);
    // Only a digest of the token is stored: the raw value is in none of the SQLite files.
    const dbFiles = (await readdir(dataDir)).filter((name) => name.startsWith("marketplace.db"));
    expect(dbFiles).toContain("marketplace.db");
    for (const name of dbFiles) expect((await readFile(join(dataDir, name))).includes(token)).toBe(false);

    expect((await fetch(link)).status).toBe(200);
    const changed = await updatePassword(server.url, token, "new-password");
    expect(changed.status).toBe(200);
    expect(await logInStatus(server.url, email, "old-password")).toBe(401);
    expect(await logInStatus(server.url, email, "new-password")).toBe(200);
    // One request, one file: nothing was written twice (the other file is the verification mail).
    const files = await emlFiles(outbox);
    expect(files).toHaveLength(2);
    expect(files).toContain(name);
  });
});
