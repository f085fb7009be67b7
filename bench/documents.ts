/**
 * Document extraction benchmark: parses the labelled corpus as text, as generated PDFs and (the
 * flyers) as generated images, and prints accuracy and time per type.
 * Run: pnpm bench:documents (node --conditions=psm-source bench/documents.ts).
 */
import "./support/ts-resolve.ts";
import type { Label } from "../packages/adapter-documents/test/support/corpus.js";

// The package by name (its "psm-source" export: the sources); its test support, which it does not
// export, by relative path, named with the ".js" of the build so TypeScript types it and the hook
// above finds the sources.
const { createDocumentParser } = await import("@psm/adapter-documents");
const { loadCorpus, score } = await import("../packages/adapter-documents/test/support/corpus.js");
const { textToPdf } = await import("../packages/adapter-documents/test/support/make-pdf.js");
const { renderTextPng } = await import("../packages/adapter-documents/test/support/render-text.js");

type Kind = "text" | "pdf" | "image";
interface Sample {
  kind: Kind;
  name: string;
  bytes: Uint8Array;
  label: Label;
}

const corpus = loadCorpus();
const samples: Sample[] = [];
for (const [i, doc] of corpus.entries()) {
  samples.push({ kind: "text", name: doc.name, bytes: new TextEncoder().encode(doc.text), label: doc.label });
  // Every third PDF runs over several pages with a running header and page numbers.
  const layout = i % 3 === 0 ? { linesPerPage: 8, furniture: "Provider brochure - confidential" } : {};
  samples.push({ kind: "pdf", name: doc.name, bytes: await textToPdf(doc.text, layout), label: doc.label });
  if (doc.name.startsWith("flyers/")) {
    const png = renderTextPng(doc.text.trimEnd().split("\n"));
    samples.push({ kind: "image", name: doc.name, bytes: png, label: doc.label });
  }
}

const parser = createDocumentParser();
const results = new Map<
  Kind,
  { ms: number[]; category: number; price: number; email: number; misses: string[] }
>();
for (const sample of samples) {
  const started = performance.now();
  const parsed = await parser.parse({ bytes: sample.bytes });
  const ms = performance.now() - started;
  const s = score(sample.label, parsed);
  const r = results.get(sample.kind) ?? { ms: [], category: 0, price: 0, email: 0, misses: [] };
  r.ms.push(ms);
  r.category += Number(s.category);
  r.price += Number(s.price);
  r.email += Number(s.email);
  if (!s.category || !s.price || !s.email) {
    const what = [
      s.category ? "" : `category ${parsed.category}`,
      s.price ? "" : `price ${parsed.price}`,
      s.email ? "" : `email ${parsed.contactEmail}`,
    ];
    r.misses.push(`${sample.name}: ${what.filter(Boolean).join(", ")}`);
  }
  results.set(sample.kind, r);
}
await parser.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const rows = [...results].map(([kind, r]) => ({
  type: kind,
  documents: r.ms.length,
  category: pct(r.category, r.ms.length),
  price: pct(r.price, r.ms.length),
  email: pct(r.email, r.ms.length),
  "median ms": percentile(r.ms, 50).toFixed(1),
  "p95 ms": percentile(r.ms, 95).toFixed(1),
}));
const all = [...results.values()];
const total = all.reduce((n, r) => n + r.ms.length, 0);
const sum = (key: "category" | "price" | "email") => all.reduce((n, r) => n + r[key], 0);
console.log(`Document extraction benchmark: ${corpus.length} labelled documents, ${total} parses`);
console.table(rows);
console.log(
  `overall: category ${pct(sum("category"), total)}, price ${pct(sum("price"), total)}, email ${pct(sum("email"), total)}`,
);
console.log(
  "targets: category >= 90%, price >= 90%, email >= 98%; text and pdf < 50 ms median, image < 3000 ms median",
);
for (const [kind, r] of results) for (const miss of r.misses) console.log(`miss (${kind}) ${miss}`);
