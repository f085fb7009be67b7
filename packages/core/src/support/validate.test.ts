import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CATEGORY_VALUES } from "../domain/category.js";
import { invalidField, isMarketplaceError, type MarketplaceError } from "../errors.js";
import { newListingSchema } from "../schemas/new-listing.js";
import { signUpSchema } from "../schemas/sign-up.js";
import { setup } from "../testing/use-case-kit.js";
import { inputIssues, MAX_ISSUES, validate } from "./validate.js";

/** The error `validate` throws for `input`. */
function refusal(schema: v.GenericSchema, input: unknown): MarketplaceError {
  try {
    validate(schema, input);
  } catch (error) {
    if (isMarketplaceError(error, "invalid_input")) return error;
    throw error;
  }
  throw new Error("validate accepted the input");
}

describe("validate", () => {
  it("lists every problem, each message naming its field; message and field stay the first's", () => {
    const error = refusal(newListingSchema, { title: "", category: "plumbing", contactEmail: "nope" });
    expect(error.issues).toEqual([
      { field: "title", message: "title: must not be empty" },
      { field: "description", message: "description: is required" },
      { field: "category", message: `category: must be one of ${CATEGORY_VALUES.join(", ")}` },
      { field: "contactEmail", message: "contactEmail: must be a valid email address" },
    ]);
    expect(error.message).toBe("title: must not be empty");
    expect(error.field).toBe("title");
  });

  it("names nested fields by their dot path, each field once (its first problem)", () => {
    const error = refusal(newListingSchema, {
      title: "t",
      description: "d",
      category: "cybersecurity",
      images: ["https://example.com/a.png", "not a link"],
    });
    expect(error.issues).toEqual([{ field: "images.1", message: "images.1: must be URLs" }]);
  });

  it("keeps a problem with the whole input out of the list, and in the message", () => {
    const error = refusal(signUpSchema, "not an object");
    expect(error.message).toBe("Body must be a JSON object");
    expect(error.field).toBeUndefined();
    expect(error.issues).toEqual([]);
  });

  it(`lists at most ${MAX_ISSUES} problems, however many the input has`, () => {
    const schema = v.object({ images: v.array(v.pipe(v.string(), v.url("must be a URL"))) });
    const error = refusal(schema, { images: Array.from({ length: 10_000 }, () => "x") });
    expect(error.issues).toHaveLength(MAX_ISSUES);
    expect(error.issues[0]).toEqual({ field: "images.0", message: "images.0: must be a URL" });
  });

  it("inputIssues says the same without throwing, and nothing for a valid input", () => {
    const input = { email: "nope", password: "abc" };
    expect(inputIssues(signUpSchema, input)).toEqual(refusal(signUpSchema, input).issues);
    expect(inputIssues(signUpSchema, { email: "a@example.com", password: "secret-password" })).toEqual([]);
  });
});

describe("MarketplaceError.issues", () => {
  it("invalidField lists its one problem; other codes list none", async () => {
    expect(invalidField("expiresAt", "must be in the future").issues).toEqual([
      { field: "expiresAt", message: "expiresAt: must be in the future" },
    ]);
    const { market, signUpAndLogIn } = setup();
    await signUpAndLogIn("a@example.com");
    const error = await market.auth
      .logIn({ email: "a@example.com", password: "wrong-password" })
      .catch((caught: unknown) => caught);
    expect(isMarketplaceError(error, "invalid_credentials") && error.issues).toEqual([]);
  });

  it("a use case answers every problem of its command from one call", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("b@example.com");
    const error = await market.listings
      .create(actor, { title: "", description: "", category: "cybersecurity", price: "lots" })
      .catch((caught: unknown) => caught);
    expect(isMarketplaceError(error, "invalid_input") && error.issues.map((issue) => issue.field)).toEqual([
      "title",
      "description",
      "price",
    ]);
    await expect(market.auth.signUp({ email: "", password: "" })).rejects.toMatchObject({
      issues: [{ field: "email" }, { field: "password" }],
    });
  });
});
