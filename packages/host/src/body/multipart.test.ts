import { describe, expect, it } from "vitest";
import { findFilePart, MAX_PARTS, multipartBoundary, readMultipart } from "./multipart.js";

const part = (name: string, value: string, filename?: string) =>
  `--b\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n` +
  `${filename ? "Content-Type: text/plain\r\n" : ""}\r\n${value}\r\n`;
const body = (...parts: string[]) => new TextEncoder().encode(`${parts.join("")}--b--\r\n`);

describe("readMultipart", () => {
  it("reads text fields (the first of a name) and files as views", () => {
    const form = readMultipart(body(part("a", "1"), part("a", "2"), part("doc", "hello", "x.txt")), "b");
    expect({ ...form.fields }).toEqual({ a: "1" });
    expect(new TextDecoder().decode(form.files.doc?.bytes)).toBe("hello");
    expect(form.files.doc).toMatchObject({ filename: "x.txt", type: "text/plain" });
  });

  it(`refuses more than ${MAX_PARTS} parts, however small, before it reads them all`, () => {
    const many = body(...Array.from({ length: 100_000 }, () => part("x", "1")));
    expect(() => readMultipart(many, "b")).toThrow(/more than 32 parts/);
    expect(
      readMultipart(body(...Array.from({ length: MAX_PARTS }, (_, i) => part(`f${i}`, "1"))), "b").fields.f31,
    ).toBe("1");
  });

  it("refuses malformed bodies and fields that are not UTF-8 or storable, with invalid_input", () => {
    for (const broken of ["no delimiter", "--b\r\nContent-Disposition: form-data; name=a\r\n1", "--bX"]) {
      expect(() => readMultipart(new TextEncoder().encode(broken), "b")).toThrow(/Malformed multipart/);
    }
    expect(() => readMultipart(body(part("a", "x\u0000y")), "b")).toThrow(/NUL/);
    const latin = Buffer.concat([
      Buffer.from(part("a", "").slice(0, -2)),
      Buffer.from([0xff]),
      Buffer.from("\r\n--b--\r\n"),
    ]);
    expect(() => readMultipart(latin, "b")).toThrow(/UTF-8/);
  });

  it("finds a file part; a plain value or a missing field is null", () => {
    const form = body(part("doc", "plain"), part("file", "bytes", "a.pdf"));
    expect(findFilePart(form, "b", "file")?.filename).toBe("a.pdf");
    expect(findFilePart(form, "b", "doc")).toBeNull();
    expect(findFilePart(form, "b", "none")).toBeNull();
  });

  it("takes the boundary from the Content-Type only", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("application/json")).toBeNull();
  });
});
