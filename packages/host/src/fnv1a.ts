/** FNV-1a over a string's UTF-16 code units, as an unsigned 32-bit number: cheap and well spread. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
