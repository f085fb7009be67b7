import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Mail, MailDeliveryError, type Mailer } from "@psm/core";
import { renderMail } from "./render-mail.js";
import { checkSender } from "./sender.js";

/** Options of the outbox mailer. */
export interface OutboxMailerOptions {
  /** Folder the `.eml` files go to; created (mode 0700) when missing. */
  dir: string;
  /** Sender, e.g. `Marketplace <no-reply@localhost>`. */
  from: string;
}

// The complete RFC 5322 message: Message-ID, Date, MIME-Version, multipart/alternative.
async function composeMessage(mail: Mail, from: string): Promise<Buffer> {
  // Loaded with the first mail, not at start: most processes write few mails or none.
  const { default: MailComposer } = await import("nodemailer/lib/mail-composer");
  // CRLF line ends are what RFC 5322 prescribes and what mail clients expect of an .eml file.
  return new MailComposer({ ...renderMail(mail, from), newline: "win" }).compile().build();
}

/** `20250102T030405123Z`: sorts by time, and is safe in file names on every platform. */
function fileStamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, "");
}

async function writeAtomically(dir: string, name: string, data: Buffer): Promise<void> {
  // The temporary name starts with a dot and lacks the .eml suffix, so anything
  // watching the outbox never picks up a half-written message.
  const temp = join(dir, `.${name}.tmp`);
  try {
    const file = await open(temp, "wx", 0o600);
    try {
      await file.writeFile(data);
      // Flushed before the rename, so a crash cannot leave a complete-looking but empty file.
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, join(dir, name));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dir);
}

// The rename survives a power cut only once the folder is flushed as well. Best
// effort: Windows cannot open a folder and some file systems refuse, and failing
// the send now would only make the dispatcher write the mail a second time.
async function syncFolder(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  try {
    const folder = await open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {}
}

/** A Mailer that writes each mail as an `.eml` file into `dir`, atomically (temp file, then rename). */
export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  const dir = options.dir;
  const from = checkSender(options.from);
  return {
    async send(mail) {
      try {
        // Every time, not once: an outbox removed while the server runs comes back.
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const message = await composeMessage(mail, from);
        await writeAtomically(dir, `${fileStamp(new Date())}-${randomBytes(6).toString("hex")}.eml`, message);
      } catch (error) {
        // A full disk or a permission problem can be fixed without touching the
        // mail, so the dispatcher should try again.
        throw new MailDeliveryError("Could not write the mail to the outbox", {
          permanent: false,
          cause: error,
        });
      }
    },
    async close() {},
  };
}
