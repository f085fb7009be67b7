import { describe, expect, it } from "vitest";
import { createOutboxMailer } from "./outbox-mailer.js";
import { checkSender } from "./sender.js";
import { createSmtpMailer } from "./smtp-mailer.js";

describe("checkSender", () => {
  it.each(["Marketplace <no-reply@localhost>", "no-reply@example.com", '"Zoë, Team" <zoe@example.com>'])(
    "accepts %s",
    (from) => {
      expect(checkSender(from)).toBe(from);
    },
  );

  it.each(["", "Marketplace", "a@example.com, b@example.com", "Team: a@example.com;"])(
    "rejects %j",
    (from) => {
      expect(() => checkSender(from)).toThrow(/one address/);
    },
  );

  it("stops both factories at construction", () => {
    expect(() => createOutboxMailer({ dir: "/nonexistent", from: "nobody" })).toThrow(/one address/);
    expect(() => createSmtpMailer({ url: "smtp://localhost", from: "nobody" })).toThrow(/one address/);
  });
});
