import { writePdf } from "@psm/adapter-documents/testing";

/** The brochure journey 2 starts from: a title, a description, a price and a contact address. */
export const BROCHURE_LINES = [
  "Penetration Testing for Web Applications",
  "Our security team runs a two-week penetration test of your web application and API,",
  "covering the OWASP Top 10, authentication flaws and cloud misconfiguration.",
  "Price: $4,800 per engagement.",
  "Contact: pentest@shieldworks.io",
];

/** PDF string syntax: backslashes and parentheses escaped. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (ch) => `\\${ch}`)})`;
}

/** A one-page PDF with the brochure as real text (what unpdf reads), one line under the other. */
export function brochurePdf(): Uint8Array<ArrayBuffer> {
  const lines = BROCHURE_LINES.map((line, i) => `${i === 0 ? "" : "0 -18 Td "}${pdfString(line)} Tj`).join(
    "\n",
  );
  const content = new TextEncoder().encode(`BT /F1 11 Tf 50 760 Td\n${lines}\nET\n`);
  return writePdf([
    { num: 1, value: "<< /Type /Catalog /Pages 2 0 R >>" },
    { num: 2, value: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>" },
    {
      num: 3,
      value:
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    },
    { num: 4, value: "<< >>", data: content },
    { num: 5, value: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
  ]);
}
