import { CATEGORY_VALUES } from "@psm/core";
import * as v from "valibot";
import type { ExtractedFields } from "../extract/extract-fields.js";
import { snippet } from "../extract/normalize.js";
import type { AiExtractorOptions } from "../options.js";
import { type AiAnswer, AiAnswerSchema, CompletionSchema } from "./ai-schema.js";

/** Characters of the document sent to the model, and bytes of its answer read at most. */
const MAX_PROMPT_CHARS = 12_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;

const INSTRUCTIONS = `You extract a marketplace listing from a professional-services document.
Answer with one JSON object only: {"title": string (at most 200 characters), "category": one of ${CATEGORY_VALUES.join(", ")}, "price": number or null (the offered price; for a range the lowest figure; for a rate the per-unit figure), "price_unit": one of fixed, hour, day, month (what the price buys; fixed for the whole job), "contact_email": the provider's contact address as written in the document, or null}.`;

function endpoint(url: string): string {
  const base = url.replace(/\/+$/, "");
  return base.endsWith("/chat/completions") ? base : `${base}/chat/completions`;
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error("model answer too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Asks the model for the fields and validates its answer. Returns null on any failure (network,
 * status, time-out, malformed or invalid answer), so the caller keeps the heuristic result.
 */
export async function askModel(options: AiExtractorOptions, text: string): Promise<AiAnswer | null> {
  try {
    const response = await fetch(endpoint(options.url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.key}` },
      body: JSON.stringify({
        model: options.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: INSTRUCTIONS },
          { role: "user", content: text.slice(0, MAX_PROMPT_CHARS) },
        ],
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!response.ok) return null;
    const envelope = v.safeParse(CompletionSchema, JSON.parse(await readBounded(response)));
    if (!envelope.success) return null;
    const content = envelope.output.choices[0]?.message.content ?? "";
    // Models often wrap JSON in a markdown fence despite being asked not to. Trimmed first and
    // cut with anchored, fixed patterns: a run of spaces must not make the regex quadratic.
    const trimmed = content.trim();
    const json =
      trimmed.startsWith("```") && trimmed.endsWith("```")
        ? trimmed.slice(3, -3).replace(/^json/, "").trim()
        : trimmed;
    const answer = v.safeParse(AiAnswerSchema, JSON.parse(json));
    return answer.success ? answer.output : null;
  } catch {
    return null;
  }
}

/**
 * Lays a validated model answer over the heuristic fields. The description stays the document's
 * own text, and an address the document does not contain is not believed.
 */
export function mergeAnswer(heuristic: ExtractedFields, answer: AiAnswer, text: string): ExtractedFields {
  const source = snippet("model answer");
  const emailInText = answer.contact_email === null || text.toLowerCase().includes(answer.contact_email);
  const contactEmail = emailInText
    ? { value: answer.contact_email, confidence: 0.8, source: answer.contact_email ?? source }
    : heuristic.fields.contactEmail;
  const fields = {
    ...heuristic.fields,
    title: { value: answer.title, confidence: 0.8, source },
    category: { value: answer.category, confidence: 0.8, source },
    price: { value: answer.price, confidence: 0.75, source },
    ...(answer.price_unit === undefined
      ? {}
      : { priceUnit: { value: answer.price_unit, confidence: 0.75, source } }),
    contactEmail,
  };
  return {
    ...heuristic,
    title: answer.title,
    category: answer.category,
    price: answer.price,
    priceUnit: answer.price_unit ?? heuristic.priceUnit,
    contactEmail: contactEmail.value,
    fields,
  };
}
