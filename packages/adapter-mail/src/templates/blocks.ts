import type { Block } from "../content.js";

/** A paragraph of a mail's body. */
export function paragraph(text: string): Block {
  return { kind: "paragraph", text };
}

/** The first line of every mail, to the name the reader chose. */
export function greeting(displayName: string): Block {
  return paragraph(`Hello ${displayName},`);
}

/** How long a mailed link works, and that it works once: "The link expires in 1 hour and can be used once." */
export function linkLifetime(count: number, unit: "minute" | "hour"): Block {
  return paragraph(`The link expires in ${count} ${count === 1 ? unit : `${unit}s`} and can be used once.`);
}
