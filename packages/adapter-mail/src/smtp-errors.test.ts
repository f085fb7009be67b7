import { describe, expect, it } from "vitest";
import { toDeliveryError } from "./smtp-errors.js";

function nodemailerError(fields: { code?: string; responseCode?: number; message?: string }): Error {
  return Object.assign(new Error(fields.message ?? "failed"), fields);
}

describe("toDeliveryError", () => {
  it.each([
    ["a 550 reply", { code: "EENVELOPE", responseCode: 550 }, true],
    ["a 554 reply to DATA", { code: "EMESSAGE", responseCode: 554 }, true],
    ["an address refused before any reply", { code: "EENVELOPE" }, true],
    ["a 451 reply", { code: "EENVELOPE", responseCode: 451 }, false],
    ["a 421 closing the session", { code: "EPROTOCOL", responseCode: 421 }, false],
    ["503 bad sequence of commands", { code: "EPROTOCOL", responseCode: 503 }, false],
    ["rejected credentials (535)", { code: "EAUTH", responseCode: 535 }, false],
    ["missing credentials", { code: "ENOAUTH" }, false],
    ["a failed TLS upgrade", { code: "ETLS" }, false],
    ["a refused connection", { code: "ESOCKET" }, false],
    ["a timeout", { code: "ETIMEDOUT" }, false],
    ["the overall time bound", { code: "EABORT" }, false],
  ])("%s is permanent: %s", (_label, fields, permanent) => {
    expect(toDeliveryError(nodemailerError(fields), "mail.example:587").permanent).toBe(permanent);
  });

  it("names the server and keeps the original error as the cause", () => {
    const original = nodemailerError({ code: "ESOCKET", message: "connect ECONNREFUSED" });
    const error = toDeliveryError(original, "mail.example:587");
    expect(error.message).toBe("SMTP delivery via mail.example:587 failed (ESOCKET): connect ECONNREFUSED");
    expect(error.cause).toBe(original);
  });

  it("copes with something that is not an Error", () => {
    expect(toDeliveryError("boom", "h:25")).toMatchObject({
      permanent: false,
      message: expect.stringContaining("boom"),
    });
  });
});
