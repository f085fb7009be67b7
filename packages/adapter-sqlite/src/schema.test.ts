import { CATEGORY_VALUES, type MailKind } from "@psm/core";
import { expect, it } from "vitest";
import { CATEGORY_CHECK, everyOne, MAIL_KIND_CHECK } from "./schema.js";

it("the category CHECK lists exactly core's categories (a new one needs a migration)", () => {
  expect([...CATEGORY_CHECK]).toEqual([...CATEGORY_VALUES]);
});

it("the mail kind CHECK names every MailKind: a list leaving one out does not compile", () => {
  expect([...MAIL_KIND_CHECK]).toEqual(["password_reset", "email_verification", "webhook_disabled"]);
  // @ts-expect-error webhook_disabled is left out (tsc -p tsconfig.tests.json checks this line)
  everyOne<MailKind>()(["password_reset", "email_verification"]);
});
