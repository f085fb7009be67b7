/**
 * Undoes the commonest OCR damage to e-mail addresses: a space read into the gap after a dot
 * or around the "@" ("name @ site. com" becomes "name@site.com"). Only for OCR output: in
 * typed text a space after a dot ends a sentence.
 */
export function repairOcrText(text: string): string {
  return text
    .replace(/([\w.%+-])\s?@\s?([a-z0-9-]+\.)/gi, "$1@$2")
    .replace(/(@[a-z0-9-]+(?:\.[a-z0-9-]+)*)\.\s(?=[a-z]{2,6}\b)/gi, "$1.");
}
