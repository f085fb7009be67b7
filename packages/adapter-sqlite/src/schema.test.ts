import { CATEGORY_VALUES, type MailKind, MESSAGE_MAIL_CHOICES, SAVED_SEARCH_MAIL_CHOICES } from "@psm/core";
import { expect, it } from "vitest";
import {
  CATEGORY_CHECK,
  everyOne,
  MAIL_KIND_CHECK,
  MESSAGE_MAIL_CHECK,
  SAVED_SEARCH_MAIL_CHECK,
} from "./schema.js";

it("the category CHECK lists exactly core's categories (a new one needs a migration)", () => {
  expect([...CATEGORY_CHECK]).toEqual([...CATEGORY_VALUES]);
});

it("the mail kind CHECK names every MailKind: a list leaving one out does not compile", () => {
  expect([...MAIL_KIND_CHECK]).toEqual([
    "password_reset",
    "email_verification",
    "webhook_disabled",
    "message_received",
    "saved_search_matched",
  ]);
  // @ts-expect-error saved_search_matched is left out (tsc -p tsconfig.tests.json checks this line)
  everyOne<MailKind>()(["password_reset", "email_verification", "webhook_disabled", "message_received"]);
});

it("the notification settings CHECKs list exactly core's choices", () => {
  expect([...MESSAGE_MAIL_CHECK]).toEqual([...MESSAGE_MAIL_CHOICES]);
  expect([...SAVED_SEARCH_MAIL_CHECK]).toEqual([...SAVED_SEARCH_MAIL_CHOICES]);
});
