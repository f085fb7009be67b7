import { describe, expect, it } from "vitest";
import { repairOcrText } from "./ocr-text.js";

describe("repairOcrText", () => {
  it("closes gaps OCR reads into e-mail addresses", () => {
    expect(repairOcrText("Contact: hello@cloudfort. io")).toBe("Contact: hello@cloudfort.io");
    expect(repairOcrText("mail anna @ berg.co. uk now")).toBe("mail anna@berg.co.uk now");
  });

  it("leaves sentences alone", () => {
    expect(repairOcrText("We build apps. Contact us today.")).toBe("We build apps. Contact us today.");
  });
});
