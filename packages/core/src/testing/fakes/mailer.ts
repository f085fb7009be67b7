import { type Mail, MailDeliveryError, type Mailer } from "../../ports/mailer.js";

/** A Mailer that keeps what it delivered and can be told to fail. */
export interface RecordingMailer extends Mailer {
  readonly sent: Mail[];
  /** The delivered mails of one kind, oldest first. */
  ofKind<K extends Mail["kind"]>(kind: K): Extract<Mail, { kind: K }>[];
  /** The next `count` sends throw MailDeliveryError (transient unless `permanent`). */
  failNext(count: number, options?: { permanent?: boolean }): void;
}

/** A mailer for tests: successful sends land in `sent`, failed ones nowhere. */
export function createRecordingMailer(): RecordingMailer {
  const sent: Mail[] = [];
  let failures = 0;
  let permanent = false;
  return {
    sent,
    ofKind<K extends Mail["kind"]>(kind: K) {
      return sent.filter((mail): mail is Extract<Mail, { kind: K }> => mail.kind === kind);
    },
    failNext(count: number, options?: { permanent?: boolean }) {
      failures = count;
      permanent = options?.permanent ?? false;
    },
    async send(mail: Mail) {
      if (failures > 0) {
        failures--;
        throw new MailDeliveryError(
          permanent ? "recipient refused (test)" : "mail server unreachable (test)",
          {
            permanent,
          },
        );
      }
      sent.push(structuredClone(mail));
    },
  };
}
