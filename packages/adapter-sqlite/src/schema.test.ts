import { CATEGORY_VALUES } from "@psm/core";
import { expect, it } from "vitest";
import { CATEGORY_CHECK } from "./schema.js";

it("the category CHECK lists exactly core's categories (a new one needs a migration)", () => {
  expect([...CATEGORY_CHECK]).toEqual([...CATEGORY_VALUES]);
});
