import { describe, expect, it } from "vitest";
import { expectCode, setup } from "../../testing/use-case-kit.js";

describe("profiles.displayNames", () => {
  it("names existing users by id, leaves unknown ones out, and refuses more than 100 ids", async () => {
    const { market, signUpAndLogIn } = setup();
    const a = await signUpAndLogIn("names-a@example.com");
    const b = await signUpAndLogIn("names-b@example.com");
    await market.users.updateDisplayName(b.actor, { displayName: "Bea" });
    const unknown = "01900000-0000-7000-8000-000000000000";
    const names = await market.profiles.displayNames({ userIds: [a.user.id, b.user.id, unknown, b.user.id] });
    expect(names).toEqual(
      new Map([
        [a.user.id, a.user.displayName],
        [b.user.id, "Bea"],
      ]),
    );
    await expectCode(
      market.profiles.displayNames({ userIds: Array.from({ length: 101 }, () => unknown) }),
      "invalid_input",
    );
    await expectCode(market.profiles.displayNames({ userIds: ["not-a-uuid"] }), "invalid_input");
  });
});
