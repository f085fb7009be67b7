import type { Deps } from "../../deps.js";
import type { MailJob } from "../../domain/mail-job.js";
import type { User } from "../../domain/user.js";
import type { Mail } from "../../ports/mailer.js";

/** What composing a mail may use. */
export type MailDeps = Pick<Deps, "repos" | "mailer" | "clock" | "random" | "settings" | "urlSigner">;

/** A mail ready to send, and how to take back what composing it stored when the send fails. */
export interface Composed {
  mail: Mail;
  undo(): Promise<void>;
}

/** Why a job has nothing to send; it is settled as failed with this reason. */
export type Nothing = { nothing: string };

/** Makes the mail of a job of one kind, when it is due. */
export type Composer = (deps: MailDeps, user: User, now: Date, job: MailJob) => Promise<Composed | Nothing>;
