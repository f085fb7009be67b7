/**
 * `@psm/adapter-mail/testing`: a real SMTP server on a loopback port that
 * records what it accepts, and the helpers mailer tests share. Needs the
 * package's dev dependencies (smtp-server, mailparser), so it is for tests only.
 */
export {
  closedPort,
  type ReceivedMail,
  resetMail,
  smtpReply,
  startSmtpServer,
  type TestSmtpServer,
} from "./smtp-server.js";
