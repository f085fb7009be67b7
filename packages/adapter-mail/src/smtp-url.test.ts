import { describe, expect, it } from "vitest";
import { parseSmtpUrl } from "./smtp-url.js";

describe("parseSmtpUrl", () => {
  it("reads host, port and URL-decoded credentials", () => {
    expect(parseSmtpUrl("smtp://me%40example.com:p%40ss%3Aw%2Frd@mail.example:2525")).toEqual({
      host: "mail.example",
      port: 2525,
      secure: false,
      auth: { user: "me@example.com", pass: "p@ss:w/rd" },
    });
  });

  it("defaults to 587 for smtp:// and 465 with TLS for smtps://, without auth", () => {
    expect(parseSmtpUrl("smtp://mail.example")).toMatchObject({ port: 587, secure: false, auth: undefined });
    expect(parseSmtpUrl("smtps://mail.example")).toMatchObject({ port: 465, secure: true, auth: undefined });
  });

  it("unwraps an IPv6 host", () => {
    expect(parseSmtpUrl("smtp://[::1]:25").host).toBe("::1");
  });

  it("rejects other schemes and malformed URLs without echoing the password", () => {
    expect(() => parseSmtpUrl("http://mail.example")).toThrow(/smtp:\/\/ or smtps:\/\//);
    for (const bad of ["smtp://user:s3cret@", "not a url s3cret", "smtp://user:s3cret%zz@mail.example"]) {
      expect(() => parseSmtpUrl(bad)).toThrow();
      expect(() => parseSmtpUrl(bad)).not.toThrow(/s3cret/);
    }
  });
});
