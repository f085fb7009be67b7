import { describe, expect, it } from "vitest";
import { extractEmail, findEmails } from "./email.js";

const email = (text: string) => extractEmail(text).value;

describe("extractEmail", () => {
  it("takes the only address, lower-cased", () => {
    expect(email("Anna Berg\nAnna@BergStrategy.com")).toBe("anna@bergstrategy.com");
  });

  it("prefers an address near contact words over one near privacy, press or careers words", () => {
    expect(email("Privacy questions: privacy@acme.io\nContact: sales@acme.io")).toBe("sales@acme.io");
    expect(email("Write to hello@acme.io - job applications: careers@acme.io")).toBe("hello@acme.io");
    expect(email("Old address info@old.com is no longer monitored.\nNew projects: projects@acme.eu")).toBe(
      "projects@acme.eu",
    );
  });

  it("reads a label on the line above", () => {
    expect(email("press@acme.io is for journalists.\nContact:\nteam@acme.io")).toBe("team@acme.io");
  });

  it("ignores no-reply and placeholder addresses where a better one exists, and never answers them alone", () => {
    expect(email("Mails come from noreply@acme.io. Email us: hi@acme.io")).toBe("hi@acme.io");
    expect(email("Contact: jane.doe@example.com or team@acme.io")).toBe("team@acme.io");
    expect(email("Confirmations are sent from no-reply@acme.io")).toBeNull();
    expect(email("Fill in your.name@example.com")).toBeNull();
  });

  it("answers an address on a reserved example domain: the domain decides nothing", () => {
    expect(email("Contact: jane@example.com")).toBe("jane@example.com");
    expect(email("Bookings: studio@brightlines.test")).toBe("studio@brightlines.test");
    expect(email("Write to ops@acme.example for a quote")).toBe("ops@acme.example");
    expect(email("Sales\nsales@example.org")).toBe("sales@example.org");
  });

  it.each([
    "you@example.com",
    "name@company.com",
    "user@domain.com",
    "your.name@firm.io",
    "email@yourcompany.com",
    "someone@acme.io",
    "xxx@acme.io",
    "firstname.lastname@acme.io",
    "john.doe@acme.io",
  ])("never answers the placeholder %s, whatever its domain", (address) => {
    expect(email(`Contact: ${address}`)).toBeNull();
  });

  it.each([
    "Send your files to an address, e.g. anna@berg.io",
    "Use a shared inbox, for example team@acme.io, not a personal one",
    "Providers such as ops@acme.io answer within a day",
    "Replace billing@acme.io with your own address",
    "Contact: studio@acme.io (replace with yours)",
  ])("never answers an address the words around it call an example: %s", (text) => {
    expect(email(text)).toBeNull();
  });

  it("keeps its judgments of role addresses next to placeholders", () => {
    expect(email("Privacy: privacy@acme.io\nExample: you@example.com\nContact: hello@acme.io")).toBe(
      "hello@acme.io",
    );
    expect(email("Press only: press@acme.io")).toBe("press@acme.io");
  });

  it("is null when there is no address", () => {
    expect(extractEmail("Call us on +1 555 0100")).toMatchObject({ value: null, source: null });
  });

  it("unfolds obfuscated addresses", () => {
    expect(findEmails("mail: anna [at] berg [dot] com")).toEqual([{ email: "anna@berg.com", index: 6 }]);
  });

  it("gives the address's line as the source, bounded", () => {
    expect(extractEmail(`Contact: a@b.io ${"x".repeat(300)}`).source?.length).toBeLessThanOrEqual(200);
  });
});
