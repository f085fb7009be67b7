/**
 * One mail template, two renderings. A template is a list of blocks; the text
 * and HTML parts are both derived from it, so they cannot drift apart.
 */

/** A block of a mail body: a paragraph, or a link the reader should follow. */
export type Block = { kind: "paragraph"; text: string } | { kind: "link"; href: string; label: string };

/** What a template produces: the subject and the body blocks. */
export interface MailContent {
  subject: string;
  blocks: readonly Block[];
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Renders the plain-text part: paragraphs separated by blank lines, each link alone on its line. */
export function renderText(content: MailContent): string {
  const parts = content.blocks.map((block) =>
    // The bare URL on its own line is what text clients turn into a working link;
    // punctuation or brackets around it often get swallowed into the URL.
    block.kind === "link" ? `${block.label}:\n${block.href}` : block.text,
  );
  return `${parts.join("\n\n")}\n`;
}

const P_STYLE =
  "margin:0 0 16px;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328";
const A_STYLE =
  "display:inline-block;padding:10px 18px;background:#0b57d0;color:#ffffff;border-radius:6px;text-decoration:none";
const SMALL_STYLE = "margin:0 0 16px;font:13px/1.5 system-ui,sans-serif;color:#59636e;word-break:break-all";

function renderHtmlBlock(block: Block): string {
  if (block.kind === "paragraph") return `<p style="${P_STYLE}">${escapeHtml(block.text)}</p>`;
  const href = escapeHtml(block.href);
  // The button may be stripped by some clients, so the address is also printed
  // as text the reader can copy.
  return [
    `<p style="${P_STYLE}"><a href="${href}" style="${A_STYLE}">${escapeHtml(block.label)}</a></p>`,
    `<p style="${SMALL_STYLE}"><a href="${href}">${href}</a></p>`,
  ].join("\n");
}

/** Renders the HTML part: a self-contained document with inline styles and no remote assets. */
export function renderHtml(content: MailContent): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff">',
    '<div style="max-width:560px;margin:0 auto">',
    ...content.blocks.map(renderHtmlBlock),
    "</div>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
