import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Category, isCategory } from "@psm/core";

/** The expected fields of one corpus document (labels.json). */
export interface Label {
  category: Category;
  price: number | null;
  contact_email: string | null;
}

/** One labelled document of the corpus. */
export interface CorpusDocument {
  name: string;
  text: string;
  label: Label;
}

/** The corpus folder beside src/. */
export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../corpus");

function toLabel(name: string, raw: unknown): Label {
  if (typeof raw !== "object" || raw === null) throw new Error(`labels.json: ${name} is not an object`);
  const category: unknown = Reflect.get(raw, "category");
  const price: unknown = Reflect.get(raw, "price");
  const email: unknown = Reflect.get(raw, "contact_email");
  if (!isCategory(category)) throw new Error(`labels.json: ${name} has an unknown category`);
  if (price !== null && typeof price !== "number") throw new Error(`labels.json: ${name} price`);
  if (email !== null && typeof email !== "string") throw new Error(`labels.json: ${name} contact_email`);
  return { category, price, contact_email: email };
}

/** Loads every labelled document; flyers (short texts printed into images) are under flyers/. */
export function loadCorpus(): CorpusDocument[] {
  const labels: unknown = JSON.parse(readFileSync(join(CORPUS_DIR, "labels.json"), "utf8"));
  if (typeof labels !== "object" || labels === null) throw new Error("labels.json is not an object");
  return Object.entries(labels).map(([name, raw]) => ({
    name,
    text: readFileSync(join(CORPUS_DIR, name), "utf8"),
    label: toLabel(name, raw),
  }));
}

/** The expected result compared with a parse: exact matches per field. */
export function score(
  label: Label,
  got: { category: string; price: number | null; contactEmail: string | null },
) {
  return {
    category: got.category === label.category,
    price: got.price === label.price,
    email: got.contactEmail === label.contact_email,
  };
}
