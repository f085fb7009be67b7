import { CATEGORY_VALUES, PRICE_UNITS } from "@psm/core";
import * as v from "valibot";

/**
 * What the model must answer, checked like user input: category one of the ten, bounded
 * strings, a finite non-negative price or null, a price unit or none, a valid address or null.
 */
export const AiAnswerSchema = v.object({
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  category: v.picklist(CATEGORY_VALUES),
  price: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1_000_000_000))),
  // Optional: a model that leaves it out keeps the heuristic unit.
  price_unit: v.optional(v.picklist(PRICE_UNITS)),
  contact_email: v.nullable(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email())),
});

/** A validated model answer. */
export type AiAnswer = v.InferOutput<typeof AiAnswerSchema>;

/** The chat completions envelope, as far as it is read. */
export const CompletionSchema = v.object({
  choices: v.pipe(
    v.array(v.object({ message: v.object({ content: v.pipe(v.string(), v.maxLength(100_000)) }) })),
    v.minLength(1),
  ),
});
