import { describe, expect, test } from "vitest";
import { createAdmission } from "./answer-admission.js";

describe("answer admission", () => {
  test("a key is admitted from its second read on", () => {
    const admission = createAdmission(4);
    expect(admission.admits("/api/listings?q=audit")).toBe(false);
    expect(admission.admits("/api/listings?q=audits")).toBe(false);
    expect(admission.admits("/api/listings?q=audit")).toBe(true);
    expect(admission.admits("/api/listings?q=audit")).toBe(true);
  });

  test("what it notes is bounded: a key is remembered across `capacity` other first reads, not forever", () => {
    const admission = createAdmission(3);
    admission.admits("kept in mind");
    for (let i = 0; i < 3; i++) admission.admits(`other ${i}`);
    // The newer generation filled and became the older: the key is still noted.
    expect(admission.admits("kept in mind")).toBe(true);
    const forgotten = createAdmission(3);
    forgotten.admits("forgotten");
    for (let i = 0; i < 7; i++) forgotten.admits(`other ${i}`);
    // Two generations later it is gone: its next read is a first read again.
    expect(forgotten.admits("forgotten")).toBe(false);
  });

  test("a key read again and again stays noted however many other keys are read once", () => {
    const admission = createAdmission(3);
    admission.admits("hot");
    for (let i = 0; i < 30; i++) {
      admission.admits(`once ${i}`);
      if (i % 2 === 1) expect(admission.admits("hot"), `after ${i + 1} others`).toBe(true);
    }
  });
});
